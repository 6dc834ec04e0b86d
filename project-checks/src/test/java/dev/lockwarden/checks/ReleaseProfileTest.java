package dev.lockwarden.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code release} profile fails the build when a POM lacks what Maven Central requires. A copy
 * of the parent POM (without its modules) is validated by a real {@code mvn -Prelease validate}:
 * as it is, it passes; with one required element removed, it fails and names the element.
 */
class ReleaseProfileTest {
    private static final Path ROOT =
            Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    @Test
    void theParentPomAsItIsPasses(@TempDir Path dir) throws Exception {
        Mvn.Result r = validate(dir, null);
        assertEquals(0, r.exit(), r.output());
    }

    @ParameterizedTest
    @CsvSource({"licenses, a license", "developers, a developer", "scm, scm", "url, a url", "description, a description"
    })
    void aPomWithoutARequiredElementFails(String element, String named, @TempDir Path dir) throws Exception {
        Mvn.Result r = validate(dir, element);
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("The POM needs " + named), r.output());
    }

    /** Runs the release profile's checks on the parent POM without its modules and without {@code removed}. */
    private static Mvn.Result validate(Path dir, String removed) throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8)
                .replaceAll("(?s)\\s*<modules>.*?</modules>", "");
        if (removed != null) {
            // the project's own element: the first one directly inside <project>, before <properties>
            String head = pom.substring(0, pom.indexOf("<properties>"));
            String cut = head.replaceFirst("(?s)\\n\\s*<" + removed + "(\\s[^>]*)?>.*?</" + removed + ">", "");
            assertNotEquals(head, cut, "no <" + removed + "> in the parent POM");
            pom = cut + pom.substring(head.length());
        }
        Files.writeString(dir.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        return Mvn.run(dir, "-Prelease", "validate");
    }
}
