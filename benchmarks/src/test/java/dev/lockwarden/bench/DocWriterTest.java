package dev.lockwarden.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocWriterTest {

    @Test
    void keepsCommentaryAndTheLastTwoRuns(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("benchmarks.md");
        Files.writeString(
                doc, "# Benchmarks\n\nwhy the numbers are what they are\n\n" + DocWriter.skeleton() + "\nmore notes\n");

        DocWriter.write(doc, "run A");
        DocWriter.write(doc, "run B");
        DocWriter.write(doc, "run C");

        String s = Files.readString(doc);
        assertEquals("run C", DocWriter.between(s, DocWriter.LATEST));
        assertEquals("run B", DocWriter.between(s, DocWriter.PREVIOUS));
        assertTrue(s.contains("why the numbers are what they are") && s.contains("more notes"), s);
    }

    @Test
    void agentSectionIsAppendedOnceThenReplacedKeepingTheRuns(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("benchmarks.md");
        DocWriter.write(doc, "run A");

        DocWriter.writeSection(doc, DocWriter.AGENT, "agent 1");
        DocWriter.writeSection(doc, DocWriter.AGENT, "agent 2");

        String s = Files.readString(doc);
        assertEquals("agent 2", DocWriter.between(s, DocWriter.AGENT));
        assertEquals("run A", DocWriter.between(s, DocWriter.LATEST));
        assertEquals(s.indexOf("## Agent overhead"), s.lastIndexOf("## Agent overhead"), s);
    }

    @Test
    void parsesCommandStats() {
        var m = RedisStats.parse(
                "# Commandstats\r\ncmdstat_evalsha:calls=10,usec=50,usec_per_call=5.00\r\ncmdstat_set:calls=3,usec=6,usec_per_call=2.00\r\n");
        assertEquals(10L, m.get("evalsha"));
        assertEquals(50L, m.get("evalsha" + RedisStats.USEC));
        assertEquals(13L, RedisStats.total(m));
        assertEquals(10L, RedisStats.clientSent(m, java.util.Set.of()));
        assertEquals(13L, RedisStats.clientSent(m, java.util.Set.of("set")));
    }
}
