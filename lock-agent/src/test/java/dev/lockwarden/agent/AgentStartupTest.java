package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentStartupTest {

    @Test
    void configArgumentReportFileAndEnvironment() {
        assertEquals(
                Path.of("/etc/locks.conf"),
                AgentArgs.parse("config=/etc/locks.conf", Map.of()).config());
        AgentArgs a = AgentArgs.parse("config=/a.conf,report=/tmp/r", Map.of(AgentArgs.ENV, "/env.conf"));
        assertEquals(Path.of("/a.conf"), a.config(), "config= wins over the environment");
        assertEquals(Optional.of(Path.of("/tmp/r")), a.report());
        assertEquals(
                Path.of("/env.conf"),
                AgentArgs.parse("", Map.of(AgentArgs.ENV, "/env.conf")).config());
        assertEquals(Optional.of(Path.of("/tmp/r")), AgentArgs.reportOf("bogus,report=/tmp/r"));
    }

    @Test
    void unknownOrMissingArgumentsSayHowToFixThem() {
        String unknown = assertThrows(IllegalArgumentException.class, () -> AgentArgs.parse("conf=/x", Map.of()))
                .getMessage();
        assertTrue(
                unknown.contains("unknown agent argument 'conf=/x'") && unknown.contains("config=/path/to/locks.conf"),
                unknown);
        String none = assertThrows(IllegalArgumentException.class, () -> AgentArgs.parse("", Map.of()))
                .getMessage();
        assertTrue(none.contains("no config file given") && none.contains("LOCKWARDEN_AGENT_CONFIG"), none);
    }
}
