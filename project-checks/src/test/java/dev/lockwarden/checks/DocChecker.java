package dev.lockwarden.checks;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one Markdown page and lists what in it does not exist: a relative link to a missing file or
 * heading, a {@code dev.lockwarden} class or a test named in backticks that has no source, a
 * {@code lockwarden.*} setting or {@code LOCKWARDEN_*} variable that no source file mentions, and in
 * its code blocks a command, script, module or program option ({@link CommandCheck}) or a class, method,
 * constant or annotation attribute ({@link ApiCheck}) that does not exist. A problem in a code block names
 * the line it is on.
 */
final class DocChecker {
    private static final Pattern QUALIFIED =
            Pattern.compile("\\bdev\\.lockwarden((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)((?:\\.[A-Z]\\w*)*)");
    private static final Pattern TEST_NAME = Pattern.compile("`(?:[\\w/]+/)?([A-Z][a-z]\\w*(?:Test|IT))(?:[#.]\\w+)?`");
    static final Pattern SETTING = Pattern.compile("(?<![\\w.$/-])lockwarden\\.[a-z][\\w-]*(?:\\.[a-z][\\w-]*)*");
    private static final Pattern ENV = Pattern.compile("\\bLOCKWARDEN_[A-Z0-9_]*[A-Z0-9]\\b");

    private final Repo repo;
    private final CommandCheck commands;
    private final ApiCheck api;

    DocChecker(Repo repo) {
        this.repo = repo;
        JavaIndex index = new JavaIndex(repo);
        this.commands = new CommandCheck(repo, index);
        this.api = new ApiCheck(index);
    }

    /** Every problem in {@code file}, each as {@code path:line: what}. */
    List<String> check(Path file) {
        String text = repo.read(file);
        Markdown md = new Markdown(text);
        List<String> problems = new ArrayList<>();
        String name = repo.root.relativize(file.toAbsolutePath().normalize()).toString();
        for (Markdown.Link link : md.links()) {
            String p = link(file, md, link.target());
            if (p != null) {
                problems.add(name + ":" + link.line() + ": " + p);
            }
        }
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            for (String p : names(lines[i])) {
                problems.add(name + ":" + (i + 1) + ": " + p);
            }
        }
        for (Markdown.CodeBlock block : md.codeBlocks()) {
            List<Finding> found = switch (block.language()) {
                case "bash", "sh", "shell", "console" -> commands.check(block.text());
                case "java" -> api.check(block.text(), repo.moduleOf(file));
                case "" -> commands.check(block.text(), false);
                default -> List.of();
            };
            for (Finding f : found) {
                problems.add(name + ":" + (block.line() + f.line()) + " (code block): " + f.what());
            }
        }
        return problems;
    }

    private String link(Path file, Markdown own, String target) {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return null; // https:, mailto: … — not checked offline
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = path.isEmpty()
                ? file
                : file.toAbsolutePath().getParent().resolve(path).normalize();
        if (!Files.exists(resolved)) {
            return "dead link " + target + " (no " + repo.root.relativize(resolved) + ")";
        }
        if (anchor != null && !anchor.isEmpty() && resolved.toString().endsWith(".md")) {
            Markdown target2 =
                    resolved.equals(file.toAbsolutePath().normalize()) ? own : new Markdown(repo.read(resolved));
            if (!target2.anchors().contains(anchor)) {
                return "dead link " + target + " (no heading #" + anchor + " in " + repo.root.relativize(resolved)
                        + ")";
            }
        }
        return null;
    }

    private static String envName(String setting) {
        return setting.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private List<String> names(String line) {
        List<String> problems = new ArrayList<>();
        Matcher q = QUALIFIED.matcher(line);
        while (q.find()) {
            // the agent jar relocates its copy of lock-core: dev.lockwarden.agent.shaded.dev.lockwarden.X is
            // lock-core's X
            String cls = ("dev.lockwarden" + q.group(1) + "." + q.group(2)).replace("dev.lockwarden.agent.shaded.", "");
            if (!repo.hasClass(cls)) {
                problems.add("no class " + cls);
            }
        }
        Matcher t = TEST_NAME.matcher(line);
        while (t.find()) {
            if (!repo.hasSimpleClass(t.group(1))) {
                problems.add("no test " + t.group(1));
            }
        }
        Matcher s = SETTING.matcher(line);
        while (s.find()) {
            String setting = s.group();
            // a setting is named in full, or its key without the prefix is a string literal ("history.cycles")
            if (!repo.sourcesContain(setting)
                    && !repo.sourcesContain("\"" + setting.substring("lockwarden.".length()) + "\"")) {
                problems.add("no source mentions the setting " + setting);
            }
        }
        Matcher e = ENV.matcher(line);
        while (e.find()) {
            String env = e.group();
            // a variable is named in full, or derived from a setting's name: lockwarden.key-prefix →
            // LOCKWARDEN_KEY_PREFIX
            if (!repo.sourcesContain(env)
                    && !repo.settingsInSources().stream()
                            .anyMatch(n -> envName(n).equals(env))) {
                problems.add("no source mentions the variable " + env);
            }
        }
        return problems;
    }
}
