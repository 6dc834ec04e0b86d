package dev.lockwarden.checks;

import dev.lockwarden.checks.JavaSource.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands of a shell code block: a script or file of the repository it runs or names must exist
 * (a script must be executable, and an option given to it must be one the script or its launcher
 * knows), a jar under a module's {@code target/} must be one that module's POM builds, every module
 * given to {@code mvn -pl} must be a module of the build, and the arguments given to a module's program
 * ({@code java -jar admin-ui/target/lockwarden-admin.jar --redis …}, {@code java -jar lock-agent.jar check
 * …}, {@code java -cp … dev.lockwarden.….Main …}) must be options and subcommands its picocli command
 * declares ({@link Picocli}). Lines ending in {@code \} continue on the next; {@code NAME=value} commands
 * set variables that later {@code $NAME}s are replaced with.
 */
final class CommandCheck {
    private static final Pattern TOKEN = Pattern.compile("'[^']*'|\"[^\"]*\"|\\S+");
    private static final Pattern PATH = Pattern.compile("^(\\./)?[\\w.-]+(/[\\w.-]+)+/?$|^\\./[\\w.-]+$");
    private static final Pattern SEPARATOR = Pattern.compile("&&|\\|\\||;|\\|");
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?");
    private static final Pattern MAIN_CLASS = Pattern.compile("<(?:mainClass|Main-Class)>\\s*([\\w.$]+)\\s*</");
    private static final Pattern LAUNCH = Pattern.compile(
            "new\\s+CommandLine\\s*\\(\\s*new\\s+([A-Z][\\w$]*)|\\b([A-Z][\\w$]*)\\s*\\.\\s*(?:main|commandLine)\\s*\\(");

    /** A word of a command line and where it starts in the block. */
    private record Token(String text, int offset) {}

    private final Repo repo;
    private final JavaIndex index;

    CommandCheck(Repo repo, JavaIndex index) {
        this.repo = repo;
        this.index = index;
    }

    /** Every problem in a shell block. */
    List<Finding> check(String block) {
        return check(block, true);
    }

    /**
     * With {@code all} false, for a block without a language that may hold more than commands, only the
     * arguments a {@code java} command line gives a module's program.
     */
    List<Finding> check(String block, boolean all) {
        String text = block.replace("\\\n", "  "); // continued lines: one command, same offsets
        Map<String, String> variables = new HashMap<>();
        List<Finding> problems = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf('\n', start);
            end = end < 0 ? text.length() : end;
            int stop = commentStart(text, start, end);
            Matcher sep = SEPARATOR.matcher(text).region(start, stop);
            int from = start;
            while (true) {
                boolean found = sep.find();
                List<Token> t = tokens(text, from, found ? sep.start() : stop, variables);
                command(block, t, variables, all, problems);
                if (!found) {
                    break;
                }
                from = sep.end();
            }
            start = end + 1;
        }
        return problems;
    }

    private void command(
            String block, List<Token> t, Map<String, String> variables, boolean all, List<Finding> problems) {
        int i = 0;
        while (i < t.size()
                && (ASSIGNMENT.matcher(t.get(i).text).matches()
                        || t.get(i).text.equals("exec")
                        || t.get(i).text.equals("sudo")
                        || t.get(i).text.equals("env"))) {
            i++;
        }
        if (i >= t.size()) {
            for (Token a : t) { // only assignments: shell variables
                Matcher m = ASSIGNMENT.matcher(a.text);
                if (m.matches()) {
                    variables.put(m.group(1), unquote(m.group(2)));
                }
            }
            return;
        }
        String word = t.get(i).text;
        if (word.equals("java")) {
            java(block, t, i + 1, all, problems);
        } else if (!all) {
            return;
        } else if (word.equals("mvn")) {
            for (int j = i + 1; j < t.size(); j++) {
                String a = t.get(j).text;
                if ((a.equals("-pl") || a.equals("--projects")) && j + 1 < t.size()) {
                    for (String m : t.get(j + 1).text.split(",")) {
                        String module = m.startsWith(":") ? m.substring(1) : m;
                        if (!repo.isModule(module) && !repo.isModule("examples/" + module)) {
                            problems.add(Finding.at(block, t.get(j + 1).offset, "mvn -pl " + m + ": no such module"));
                        }
                    }
                }
            }
        } else if (word.contains("/") && PATH.matcher(word).matches()) {
            if (path(block, t.get(i), word, true, problems)) {
                Path script = repo.root.resolve(word);
                String text = Files.isRegularFile(script) ? repo.read(script) : "";
                for (int j = i + 1; j < t.size(); j++) {
                    String opt = t.get(j).text.split("=", 2)[0];
                    if (opt.startsWith("--")
                            && opt.length() > 2
                            && !text.contains(opt)
                            && !repo.sourcesContain("\"" + opt + "\"")) {
                        problems.add(Finding.at(block, t.get(j).offset, word + ": unknown option " + opt));
                    }
                }
            }
        }
    }

    /** A {@code java} command line from {@code j}: the paths it names, and the arguments its program gets. */
    private void java(String block, List<Token> t, int j, boolean all, List<Finding> problems) {
        for (; j < t.size(); j++) {
            Token token = t.get(j);
            String a = token.text;
            if (a.equals("-jar") && j + 1 < t.size()) {
                String jar = unquote(t.get(j + 1).text);
                if (all) {
                    path(block, t.get(j + 1), jar, false, problems);
                }
                String name = jar.substring(jar.lastIndexOf('/') + 1);
                program(block, jarModule(jar).flatMap(this::mainClass), name, t.subList(j + 2, t.size()), problems);
                return;
            } else if ((a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) && j + 1 < t.size()) {
                if (all) {
                    path(block, t.get(j + 1), unquote(t.get(j + 1).text), false, problems);
                }
                j++;
            } else if (a.startsWith("-javaagent:")) {
                if (all) {
                    path(block, token, a.substring("-javaagent:".length()).split("=", 2)[0], false, problems);
                    Matcher config = Pattern.compile("config=([^,\\s]+)").matcher(a);
                    if (config.find()) {
                        path(block, token, config.group(1), false, problems);
                    }
                }
            } else if (!a.startsWith("-")) {
                String main = a.substring(a.lastIndexOf('.') + 1);
                program(block, index.qualified(a), main, t.subList(j + 1, t.size()), problems);
                return;
            }
        }
    }

    /** Checks the arguments given to a program whose main class is {@code main}, when it runs a picocli command. */
    private void program(String block, Optional<Type> main, String name, List<Token> args, List<Finding> problems) {
        Optional<Picocli> command = main.flatMap(m -> command(m, 0));
        command.ifPresent(c -> c.walk(
                name,
                args.stream().map(Token::text).toList(),
                (what, k) -> problems.add(Finding.at(block, args.get(k).offset, what))));
    }

    /** The picocli command a main class runs: its own {@code @Command}, or the one it hands the arguments to. */
    private Optional<Picocli> command(Type main, int depth) {
        Optional<Picocli> own = Picocli.of(index, main);
        if (own.isPresent() || depth >= 3) {
            return own;
        }
        Matcher m = LAUNCH.matcher(main.source.code.substring(main.bodyOpen, main.bodyClose));
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            Optional<Picocli> c = name.equals(main.name)
                    ? Optional.empty()
                    : index.resolve(name, main).flatMap(t -> command(t, depth + 1));
            if (c.isPresent()) {
                return c;
            }
        }
        return Optional.empty();
    }

    /** The module that builds the jar: the one whose {@code target/} it is in, or whose POM names the file. */
    private Optional<String> jarModule(String jar) {
        if (jar.contains("$")) {
            return Optional.empty();
        }
        int target = jar.indexOf("/target/");
        if (target >= 0) {
            String module = jar.substring(0, target).replaceFirst("^\\./", "");
            return repo.isModule(module) ? Optional.of(module) : Optional.empty();
        }
        if (jar.contains("/") || !jar.endsWith(".jar")) {
            return Optional.empty();
        }
        String base = jar.substring(0, jar.length() - ".jar".length());
        List<String> building = repo.modules().stream()
                .filter(m -> {
                    Path pom = repo.root.resolve(m).resolve("pom.xml");
                    String text = Files.isRegularFile(pom) ? repo.read(pom) : "";
                    return text.contains("<finalName>" + base + "</finalName>")
                            || text.contains("/" + jar + "</outputFile>");
                })
                .toList();
        return building.size() == 1 ? Optional.of(building.get(0)) : Optional.empty();
    }

    /** The main class the module's POM writes into its jar's manifest. */
    private Optional<Type> mainClass(String module) {
        Matcher m = MAIN_CLASS.matcher(repo.read(repo.root.resolve(module).resolve("pom.xml")));
        return m.find() ? index.qualified(m.group(1)) : Optional.empty();
    }

    /** Checks a path named in a command; {@code run} when it is the command itself. True when it exists. */
    private boolean path(String block, Token at, String p, boolean run, List<Finding> problems) {
        if (p.startsWith("/") || p.contains("$") || p.contains("<") || p.contains("…") || !p.contains("/")) {
            return false;
        }
        int target = p.indexOf("/target/");
        if (target >= 0) {
            String module = p.substring(0, target);
            String built =
                    p.substring(target + "/target/".length()).split("/")[0].replaceAll("\\.(jar|war)$", "");
            if (!repo.isModule(module)) {
                problems.add(Finding.at(block, at.offset, p + ": " + module + " is not a module of the build"));
            } else if (!repo.read(repo.root.resolve(module).resolve("pom.xml")).contains(built)) {
                problems.add(Finding.at(block, at.offset, p + ": " + module + "'s POM does not build " + built));
            }
            return false;
        }
        Path file = repo.root.resolve(p);
        if (!Files.exists(file)) {
            problems.add(Finding.at(block, at.offset, p + ": no such file"));
            return false;
        }
        if (run && !Files.isExecutable(file)) {
            problems.add(Finding.at(block, at.offset, p + ": not executable"));
        }
        return true;
    }

    /** Where a comment starts on the line: a {@code #} at its start or after a space; else the line's end. */
    private static int commentStart(String text, int start, int end) {
        for (int i = start; i < end; i++) {
            if (text.charAt(i) == '#' && (i == start || Character.isWhitespace(text.charAt(i - 1)))) {
                return i;
            }
        }
        return end;
    }

    private static List<Token> tokens(String text, int from, int to, Map<String, String> variables) {
        List<Token> t = new ArrayList<>();
        Matcher m = TOKEN.matcher(text).region(from, to);
        while (m.find()) {
            Matcher v = VARIABLE.matcher(m.group());
            StringBuilder s = new StringBuilder();
            while (v.find()) {
                v.appendReplacement(s, Matcher.quoteReplacement(variables.getOrDefault(v.group(1), v.group())));
            }
            v.appendTail(s);
            t.add(new Token(s.toString(), m.start()));
        }
        return t;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && (s.startsWith("'") && s.endsWith("'") || s.startsWith("\"") && s.endsWith("\""))
                ? s.substring(1, s.length() - 1)
                : s;
    }
}
