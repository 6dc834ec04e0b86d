package dev.lockwarden.checks;

import dev.lockwarden.checks.JavaSource.Annotation;
import dev.lockwarden.checks.JavaSource.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A picocli command read from its source: the options its {@code @Option} fields and methods declare (and
 * whether each takes a value), its {@code @Command(subcommands = …)} by name, and whether it takes
 * positional parameters. {@link #walk} checks a command line's arguments against it.
 */
final class Picocli {
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CLASS_LITERAL = Pattern.compile("([\\w.$]+)\\s*\\.\\s*class\\b");

    final String name;
    /** Option name to whether it takes a value. */
    final Map<String, Boolean> options = new HashMap<>();

    final Map<String, Picocli> subcommands = new LinkedHashMap<>();
    boolean positionals;
    /** Some option or subcommand could not be read (a mixin, an unknown class): accept what is not known. */
    boolean open;
    /** picocli's own {@code help} subcommand: takes any command name. */
    boolean help;

    private Picocli(String name) {
        this.name = name;
    }

    /** The command declared by a class annotated with {@code @Command}, if it is one. */
    static Optional<Picocli> of(JavaIndex index, Type type) {
        Optional<Annotation> command = type.annotation("Command");
        if (command.isEmpty()) {
            return Optional.empty();
        }
        String args = command.get().arguments() == null ? "" : command.get().arguments();
        Picocli c = new Picocli(strings(args, "name").stream().findFirst().orElse(type.name));
        if (attribute(args, "mixinStandardHelpOptions")
                .map(v -> v.strip().equals("true"))
                .orElse(false)) {
            for (String o : List.of("-h", "--help", "-V", "--version")) {
                c.options.put(o, false);
            }
        }
        Matcher sub = CLASS_LITERAL.matcher(attribute(args, "subcommands").orElse(""));
        while (sub.find()) {
            String written = sub.group(1);
            if (written.endsWith("HelpCommand")) {
                Picocli help = new Picocli("help");
                help.help = true;
                c.subcommands.put("help", help);
                continue;
            }
            Optional<Picocli> s = index.resolve(written, type).flatMap(t -> of(index, t));
            if (s.isEmpty()) {
                c.open = true;
                continue;
            }
            c.subcommands.put(s.get().name, s.get());
            String sArgs = index.resolve(written, type)
                    .flatMap(t -> t.annotation("Command"))
                    .map(Annotation::arguments)
                    .orElse("");
            strings(sArgs == null ? "" : sArgs, "aliases").forEach(alias -> c.subcommands.put(alias, s.get()));
        }
        for (Type t = type; t != null; ) {
            c.read(t);
            t = t.superclasses.isEmpty()
                    ? null
                    : index.resolve(t.superclasses.get(0), t).orElse(null);
        }
        return Optional.of(c);
    }

    private void read(Type type) {
        for (JavaSource.Field f : type.fields) {
            member(f.annotations(), f.type());
        }
        for (JavaSource.Method m : type.methods) {
            member(m.annotations(), m.parameters() == 0 ? "boolean" : "String");
        }
    }

    private void member(List<Annotation> annotations, String type) {
        for (Annotation a : annotations) {
            switch (a.simpleName()) {
                case "Option" -> {
                    String args = a.arguments() == null ? "" : a.arguments();
                    boolean flag = type.equals("boolean")
                            || type.equals("Boolean")
                            || attribute(args, "arity")
                                    .map(v -> v.strip().matches("\"0(\\.\\.0)?\""))
                                    .orElse(false);
                    strings(args, "names").forEach(n -> options.put(n, !flag));
                }
                case "Parameters" -> positionals = true;
                case "Mixin", "ArgGroup" -> open = true;
                default -> {}
            }
        }
    }

    /** An annotation attribute's value as written, up to the next top-level comma. */
    private static Optional<String> attribute(String args, String name) {
        String code = JavaSource.blank(args, false);
        Matcher m = Pattern.compile("\\b" + name + "\\s*=").matcher(code);
        if (!m.find()) {
            return Optional.empty();
        }
        int start = m.end();
        int depth = 0;
        int i = start;
        for (; i < code.length(); i++) {
            char ch = code.charAt(i);
            if (ch == '{' || ch == '(') {
                depth++;
            } else if (ch == '}' || ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                break;
            }
        }
        return Optional.of(args.substring(start, i));
    }

    /** The string literals of an attribute's value: {@code "x"} or {@code {"-x", "--xx"}}. */
    private static List<String> strings(String args, String name) {
        List<String> values = new ArrayList<>();
        Matcher s = STRING.matcher(attribute(args, name).orElse(""));
        while (s.find()) {
            values.add(s.group(1));
        }
        return values;
    }

    /**
     * Checks a command line's arguments (after the jar or main class) against this command: each option must
     * be one the command (or subcommand) in effect declares, and a word where a subcommand is expected must
     * name one. {@code what} names the program in the problem; {@code report} gets the argument's index and
     * the problem. Stops at the first problem, or at a shell operator.
     */
    void walk(String what, List<String> args, java.util.function.ObjIntConsumer<String> report) {
        Picocli command = this;
        String path = what;
        boolean positional = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.matches("[&<>|].*|\\d>.*") && !a.matches("<[\\w.-]+>")) {
                return;
            }
            if (command.help || a.equals("--")) {
                return;
            }
            if (a.startsWith("-") && a.length() > 1 && !a.matches("-\\d.*")) {
                String option = a.split("=", 2)[0];
                Boolean takesValue = command.options.get(option);
                if (takesValue == null) {
                    if (!command.open) {
                        report.accept(path + ": unknown option " + option, i);
                    }
                    return;
                }
                if (takesValue && !a.contains("=")) {
                    i++;
                }
                continue;
            }
            Picocli sub = positional ? null : command.subcommands.get(a);
            if (sub != null) {
                command = sub;
                path = path + " " + a;
                continue;
            }
            if (!command.subcommands.isEmpty() && !command.positionals && !positional) {
                if (!command.open) {
                    report.accept(
                            path + ": unknown command " + a + " (commands: "
                                    + String.join(", ", command.subcommands.keySet()) + ")",
                            i);
                }
                return;
            }
            positional = true;
        }
    }
}
