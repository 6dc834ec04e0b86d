package dev.lockwarden.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile configs end fast with the line and never continue: a huge file is not read, too many rules stop at the
 * first one beyond the limit, and a pattern cannot make matching slow.
 */
class ConfigLimitsTest {
    private static final Duration FAST = Duration.ofSeconds(1);

    @TempDir
    Path dir;

    @Test
    void aHundredMegabyteFileIsRefusedWithoutReadingIt() throws Exception {
        Path big = dir.resolve("big.conf");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(100L * 1024 * 1024);
        }
        AgentConfigException e = assertTimeoutPreemptively(
                FAST, () -> assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse(big)));
        assertTrue(
                e.getMessage().contains(big + ": the file is larger than 1048576 bytes (the agent's limit)"),
                e.getMessage());
        assertFalse(e.continueOnError());
    }

    @Test
    void aFileWithoutLengthIsReadOnlyUpToTheLimit() {
        Path zero = Path.of("/dev/zero");
        AgentConfigException e = assertTimeoutPreemptively(
                FAST, () -> assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse(zero)));
        assertTrue(e.getMessage().contains("/dev/zero: the file is larger than 1048576 bytes"), e.getMessage());
    }

    @Test
    void tenThousandRulesStopAtTheFirstBeyondTheLimitEvenWithContinue() throws Exception {
        Path file = Files.write(dir.resolve("many.conf"), rules(10_000, "onConfigError = continue"));
        AgentConfigException e = assertTimeoutPreemptively(
                FAST, () -> assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse(file)));
        assertEquals(
                List.of(file + ":1002: more than 1000 rules (the agent's limit) — use patterns"
                        + " (com.acme.jobs.*Job#run) or + for subtypes instead of one rule per class"),
                e.problems());
        assertFalse(e.continueOnError(), "the rules beyond the limit must not run unlocked");
    }

    @Test
    void aThousandRulesAreReadFast() throws Exception {
        Path file = Files.write(dir.resolve("limit.conf"), rules(1000, "redis = redis://127.0.0.1:6379"));
        AgentConfig c = assertTimeoutPreemptively(FAST, () -> AgentConfigParser.parse(file));
        assertEquals(1000, c.rules().size());
    }

    @Test
    void patternsAndLinesBeyondTheLimitsAreRefusedWithTheLine() {
        String nine = "com.acme.a*a*a*a*a*a*a*a*a*b#run key=\"x\"";
        AgentConfigException e = assertThrows(
                AgentConfigException.class,
                () -> AgentConfigParser.parse("p.conf", List.of("onConfigError = continue", nine)));
        assertTrue(
                e.getMessage()
                        .contains("p.conf:2: pattern 'com.acme.a*a*a*a*a*a*a*a*a*b' has 28 characters and 9"
                                + " wildcards; the agent's limits are 256 and 8"),
                e.getMessage());
        assertFalse(e.continueOnError());
        String longMethod = "com.acme.X#" + "m".repeat(300) + " key=\"x\"";
        assertTrue(
                assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse("p.conf", List.of(longMethod)))
                        .getMessage()
                        .contains("p.conf:1: pattern 'mmmm"));
        String longLine = "# " + "x".repeat(5000);
        assertTrue(assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse("p.conf", List.of(longLine)))
                .getMessage()
                .contains("p.conf:1: the line is longer than 4096 characters"));
    }

    @Test
    void patternsAtTheLimitsAreAcceptedAndOneBeyondRefusedEvenWithContinue() throws Exception {
        String classAt = "com.acme." + "C".repeat(256 - "com.acme.".length());
        String methodAt = "m".repeat(256);
        String classStars = "com.acme.a*a*a*a*a*a*a*a*b"; // 8
        String methodStars = "r*u*n*a*b*c*d*e*"; // 8
        AgentConfig c = AgentConfigParser.parse(
                "p.conf",
                List.of(
                        classAt + "#run key=\"x\"",
                        "com.acme.X#" + methodAt + " key=\"x\"",
                        classStars + "#" + methodStars + " key=\"x\""));
        assertEquals(3, c.rules().size());
        assertEquals(256, c.rules().get(0).className().length());
        assertEquals(256, c.rules().get(1).methodName().length());

        for (String beyond : List.of(
                classAt + "D#run key=\"x\"",
                "com.acme.X#" + methodAt + "n key=\"x\"",
                classStars.replace("b", "a*b") + "#run key=\"x\"",
                "com.acme.X#" + methodStars + "f* key=\"x\"")) {
            AgentConfigException e = assertThrows(
                    AgentConfigException.class,
                    () -> AgentConfigParser.parse("p.conf", List.of("onConfigError = continue", beyond)));
            assertTrue(
                    e.getMessage().contains("p.conf:2: pattern '")
                            && e.getMessage().contains("the agent's limits are 256 and 8"),
                    e.getMessage());
            assertFalse(e.continueOnError(), "a rule beyond a limit must not run unlocked: " + beyond);
        }
    }

    @Test
    void thePathologicalWildcardAtTheLimitMatchesFast() {
        String pattern = "a*a*a*a*a*a*a*a*b";
        String name = "a".repeat(100_000);
        assertTimeoutPreemptively(FAST, () -> {
            assertFalse(Names.wildcard(pattern, name, '.'));
            assertTrue(Names.wildcard(pattern, name + "b", '.'));
        });
    }

    private static List<String> rules(int count, String firstLine) {
        List<String> lines = new ArrayList<>(List.of(firstLine));
        for (int i = 0; i < count; i++) {
            lines.add("com.acme.generated.Job" + i + "#run key=\"job:" + i + "\" ttl=30s");
        }
        return lines;
    }
}
