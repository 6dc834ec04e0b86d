package dev.lockwarden.agent.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** Splits the options part of a rule line ({@code name=value name="quoted \"value\""}) and rejects unknown ones. */
final class RuleOptions {
    static final List<String> OPTIONS = List.of(
            "key", "ttl", "wait", "onBusy", "autoRefresh", "onLost", "onStoreDown", "holdAtLeast", "replicaAcks");

    private RuleOptions() {}

    /** The options by name; each problem goes to {@code problem} as (problem, fix). */
    static Map<String, String> parse(String text, BiConsumer<String, String> problem) {
        Map<String, String> options = new LinkedHashMap<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (Character.isWhitespace(text.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && text.charAt(i) != '=' && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            String name = text.substring(start, i);
            if (i >= n || text.charAt(i) != '=') {
                problem.accept("'" + name + "' is not an option", "write options as name=value, e.g. ttl=30s");
                continue;
            }
            i++;
            StringBuilder value = new StringBuilder();
            if (i < n && text.charAt(i) == '"') {
                i = quoted(text, i + 1, value, name, problem);
            } else {
                while (i < n && !Character.isWhitespace(text.charAt(i))) {
                    value.append(text.charAt(i++));
                }
            }
            add(options, name, value.toString(), problem);
        }
        return options;
    }

    private static int quoted(
            String text, int i, StringBuilder value, String name, BiConsumer<String, String> problem) {
        int n = text.length();
        while (i < n && text.charAt(i) != '"') {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < n) {
                c = text.charAt(++i);
            }
            value.append(c);
            i++;
        }
        if (i >= n) {
            problem.accept(
                    "the value of " + name + " has no closing quote",
                    "end it with \", e.g. " + name + "=\"payment:{0}\"");
        }
        return i + 1;
    }

    private static void add(
            Map<String, String> options, String name, String value, BiConsumer<String, String> problem) {
        if (!OPTIONS.contains(name)) {
            problem.accept(
                    "unknown option '" + name + "'" + Suggest.of(name, OPTIONS), "use " + String.join(", ", OPTIONS));
        } else if (options.containsKey(name)) {
            problem.accept("option " + name + " is given twice", "keep one " + name + "=...");
        } else if (value.isEmpty()) {
            problem.accept("option " + name + " has no value", "write e.g. " + name + "=" + example(name));
        } else {
            options.put(name, value);
        }
    }

    static String example(String option) {
        return switch (option) {
            case "key" -> "\"payment:{0}\"";
            case "ttl" -> "30s";
            case "wait" -> "0s";
            case "onBusy" -> "FAIL";
            case "onLost" -> "log";
            case "onStoreDown" -> "fail";
            case "holdAtLeast" -> "30s";
            case "replicaAcks" -> "1/100ms";
            default -> "true";
        };
    }
}
