package dev.lockwarden.checks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of a Markdown page the doc checks read: its links, its fenced code blocks (with their
 * language and first line number), and the anchors its headings get on GitHub.
 */
final class Markdown {
    private static final Pattern LINK =
            Pattern.compile("(?<!!)\\[[^\\]]*]\\(([^)\\s]+)\\)|!\\[[^\\]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");

    /** A link target as written, and the line it is on. */
    record Link(String target, int line) {}

    /** A fenced code block: its info string ({@code bash}, {@code java}, …, may be empty), first line and text. */
    record CodeBlock(String language, int line, String text) {}

    private final List<String> lines;
    private final List<CodeBlock> blocks = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final Set<String> anchors = new LinkedHashSet<>();

    Markdown(String text) {
        this.lines = List.of(text.split("\n", -1));
        parse();
    }

    List<CodeBlock> codeBlocks() {
        return blocks;
    }

    List<Link> links() {
        return links;
    }

    Set<String> anchors() {
        return anchors;
    }

    private void parse() {
        StringBuilder block = null;
        String language = "";
        int blockStart = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String trimmed = line.strip();
            if (trimmed.startsWith("```")) {
                if (block == null) {
                    block = new StringBuilder();
                    language = trimmed.substring(3).strip().toLowerCase(Locale.ROOT);
                    blockStart = i + 2;
                } else {
                    blocks.add(new CodeBlock(language, blockStart, block.toString()));
                    block = null;
                }
                continue;
            }
            if (block != null) {
                block.append(line).append('\n');
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                addAnchor(slug(h.group(1)));
            }
            Matcher m = LINK.matcher(line);
            while (m.find()) {
                links.add(new Link(m.group(1) != null ? m.group(1) : m.group(2), i + 1));
            }
        }
    }

    /** GitHub repeats an anchor with {@code -1}, {@code -2}, … for headings of the same text. */
    private void addAnchor(String slug) {
        String candidate = slug;
        for (int n = 1; !anchors.add(candidate); n++) {
            candidate = slug + "-" + n;
        }
    }

    /** GitHub's heading anchor: lower case, punctuation dropped except {@code -} and {@code _}, spaces to {@code -}. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
        StringBuilder s = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                s.appendCodePoint(c);
            } else if (c == ' ') {
                s.append('-');
            }
        });
        return s.toString();
    }
}
