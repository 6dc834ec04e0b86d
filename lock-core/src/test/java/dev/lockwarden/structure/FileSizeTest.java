package dev.lockwarden.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * lock-core's main files stay small: none over 300 lines ({@code LockManager}, whose public nested
 * {@code Builder} documents every setting, aside), and none over 200 without saying why at its top.
 */
class FileSizeTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/lockwarden");

    @Test
    void mainFilesAreSmallOrSayWhyNot() throws IOException {
        List<String> tooLong = new ArrayList<>();
        List<String> unexplained = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(SOURCES)) {
            for (Path f : all.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                List<String> lines = Files.readAllLines(f);
                String name = SOURCES.relativize(f).toString();
                if (lines.size() > 300 && !name.equals("LockManager.java")) {
                    tooLong.add(name + " (" + lines.size() + ")");
                }
                String top = String.join("\n", lines.subList(0, Math.min(lines.size(), 60)));
                if (lines.size() > 200
                        && !top.toLowerCase(java.util.Locale.ROOT).contains("over 200 lines")) {
                    unexplained.add(name + " (" + lines.size() + ")");
                }
            }
        }
        assertTrue(files > 50, "sources not found: " + files);
        assertEquals(List.of(), tooLong, "main files over 300 lines");
        assertEquals(
                List.of(),
                unexplained,
                "main files over 200 lines that do not say at their top why they are over 200 lines");
    }
}
