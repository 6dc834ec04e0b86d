package dev.lockwarden.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Puts a run's tables into {@code docs/benchmarks.md} between markers, keeping the commentary
 * around them: the new run becomes "latest"; a page that also has "previous" markers keeps the
 * run before it there (the published report has only "latest").
 */
final class DocWriter {
    static final String LATEST = "bench:latest";
    static final String PREVIOUS = "bench:previous";
    /** The "Agent overhead" section written by {@link AgentBenchmarkMain}; only the latest run is kept. */
    static final String AGENT = "bench:agent";

    private DocWriter() {}

    static void write(Path file, String run) throws IOException {
        String doc = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : skeleton();
        if (!doc.contains(begin(LATEST))) {
            doc = doc + "\n" + skeleton();
        }
        String oldLatest = between(doc, LATEST);
        if (!oldLatest.isBlank() && doc.contains(begin(PREVIOUS))) {
            doc = replace(doc, PREVIOUS, oldLatest);
        }
        doc = replace(doc, LATEST, run);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, doc, StandardCharsets.UTF_8);
    }

    /**
     * Replaces the body between {@code marker}'s comments, or appends an "Agent overhead" section with
     * those markers when the page has none; the rest of the page is kept as it is.
     */
    static void writeSection(Path file, String marker, String body) throws IOException {
        String doc = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "# Benchmarks\n";
        if (!doc.contains(begin(marker))) {
            doc = doc.stripTrailing() + "\n\n## Agent overhead\n\n" + begin(marker) + "\n" + end(marker) + "\n";
        }
        doc = replace(doc, marker, body);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, doc, StandardCharsets.UTF_8);
    }

    static String skeleton() {
        return "# Benchmarks\n\n## Latest run\n\n" + begin(LATEST) + "\n" + end(LATEST) + "\n\n## Previous run\n\n"
                + begin(PREVIOUS) + "\n" + end(PREVIOUS) + "\n";
    }

    private static String begin(String marker) {
        return "<!-- " + marker + " -->";
    }

    private static String end(String marker) {
        return "<!-- /" + marker + " -->";
    }

    static String between(String doc, String marker) {
        int s = doc.indexOf(begin(marker));
        int e = doc.indexOf(end(marker));
        if (s < 0 || e < s) {
            return "";
        }
        return doc.substring(s + begin(marker).length(), e).strip();
    }

    private static String replace(String doc, String marker, String body) {
        int s = doc.indexOf(begin(marker));
        int e = doc.indexOf(end(marker));
        return doc.substring(0, s + begin(marker).length()) + "\n" + body.strip() + "\n" + doc.substring(e);
    }
}
