package dev.lockwarden.checks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands of a shell code block: a script or file of the repository it runs or names must exist
 * (a script must be executable, and an option given to it must be one the script or its launcher
 * knows), a jar under a module's {@code target/} must be one that module's POM builds, and every module
 * given to {@code mvn -pl} must be a module of the build.
 */
final class CommandCheck {
    private static final Pattern TOKEN = Pattern.compile("'[^']*'|\"[^\"]*\"|\\S+");
    private static final Pattern PATH = Pattern.compile("^(\\./)?[\\w.-]+(/[\\w.-]+)+/?$|^\\./[\\w.-]+$");

    private final Repo repo;

    CommandCheck(Repo repo) {
        this.repo = repo;
    }

    List<String> check(String block) {
        List<String> problems = new ArrayList<>();
        for (String raw : block.split("\n")) {
            String line = withoutComment(raw.strip());
            if (line.isEmpty()) {
                continue;
            }
            for (String command : line.split("&&|\\|\\||;|\\|")) {
                command(tokens(command), problems);
            }
        }
        return problems;
    }

    private void command(List<String> t, List<String> problems) {
        int i = 0;
        while (i < t.size()
                && (t.get(i).matches("[A-Za-z_][A-Za-z0-9_]*=.*")
                        || t.get(i).equals("exec")
                        || t.get(i).equals("sudo")
                        || t.get(i).equals("env"))) {
            i++;
        }
        if (i >= t.size()) {
            return;
        }
        String word = t.get(i);
        if (word.equals("mvn")) {
            for (int j = i + 1; j < t.size(); j++) {
                if ((t.get(j).equals("-pl") || t.get(j).equals("--projects")) && j + 1 < t.size()) {
                    for (String m : t.get(j + 1).split(",")) {
                        String module = m.startsWith(":") ? m.substring(1) : m;
                        if (!repo.isModule(module) && !repo.isModule("examples/" + module)) {
                            problems.add("mvn -pl " + m + ": no such module");
                        }
                    }
                }
            }
        } else if (word.equals("java")) {
            for (int j = i + 1; j < t.size(); j++) {
                String a = t.get(j);
                if ((a.equals("-jar") || a.equals("-cp")) && j + 1 < t.size()) {
                    path(t.get(j + 1), false, problems);
                } else if (a.startsWith("-javaagent:")) {
                    path(a.substring("-javaagent:".length()).split("=", 2)[0], false, problems);
                    Matcher config = Pattern.compile("config=([^,\\s]+)").matcher(a);
                    if (config.find()) {
                        path(config.group(1), false, problems);
                    }
                }
            }
        } else if (word.contains("/") && PATH.matcher(word).matches()) {
            if (path(word, true, problems)) {
                Path script = repo.root.resolve(word);
                String text = Files.isRegularFile(script) ? repo.read(script) : "";
                for (int j = i + 1; j < t.size(); j++) {
                    String opt = t.get(j).split("=", 2)[0];
                    if (opt.startsWith("--")
                            && opt.length() > 2
                            && !text.contains(opt)
                            && !repo.sourcesContain("\"" + opt + "\"")) {
                        problems.add(word + ": unknown option " + opt);
                    }
                }
            }
        }
    }

    /** Checks a path named in a command; {@code run} when it is the command itself. True when it exists. */
    private boolean path(String p, boolean run, List<String> problems) {
        if (p.startsWith("/") || p.contains("$") || p.contains("<") || p.contains("…") || !p.contains("/")) {
            return false;
        }
        int target = p.indexOf("/target/");
        if (target >= 0) {
            String module = p.substring(0, target);
            String built =
                    p.substring(target + "/target/".length()).split("/")[0].replaceAll("\\.(jar|war)$", "");
            if (!repo.isModule(module)) {
                problems.add(p + ": " + module + " is not a module of the build");
            } else if (!repo.read(repo.root.resolve(module).resolve("pom.xml")).contains(built)) {
                problems.add(p + ": " + module + "'s POM does not build " + built);
            }
            return false;
        }
        Path file = repo.root.resolve(p);
        if (!Files.exists(file)) {
            problems.add(p + ": no such file");
            return false;
        }
        if (run && !Files.isExecutable(file)) {
            problems.add(p + ": not executable");
        }
        return true;
    }

    private static String withoutComment(String line) {
        if (line.startsWith("#")) {
            return "";
        }
        Matcher m = Pattern.compile("\\s#").matcher(line);
        return m.find() ? line.substring(0, m.start()).strip() : line;
    }

    private static List<String> tokens(String command) {
        List<String> t = new ArrayList<>();
        Matcher m = TOKEN.matcher(command);
        while (m.find()) {
            t.add(m.group());
        }
        return t;
    }
}
