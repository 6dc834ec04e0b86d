package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class AgentStartupTest {

    @Test
    void configArgument() {
        assertEquals(Path.of("/etc/locks.conf"), AgentStartup.configPath("config=/etc/locks.conf"));
    }

    @Test
    void unknownOrMissingArgumentsSayHowToFixThem() {
        String unknown = assertThrows(IllegalArgumentException.class, () -> AgentStartup.configPath("conf=/x")).getMessage();
        assertTrue(unknown.contains("unknown agent argument 'conf=/x'") && unknown.contains("config=/path/to/locks.conf"), unknown);
        String none = assertThrows(IllegalArgumentException.class, () -> AgentStartup.configPath("")).getMessage();
        assertTrue(none.contains("no config file given"), none);
    }
}
