package dev.lockwarden.agent;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigException;
import dev.lockwarden.agent.config.AgentConfigParser;

/**
 * Reads the agent arguments and the config file; installs nothing unless both are valid. Kept free
 * of references to the bootstrap bridge so the bridge can be injected before anything loads it.
 */
final class AgentStartup {
    static final String PREFIX = "lockwarden-agent: ";

    private AgentStartup() {
    }

    static void start(String args, Instrumentation inst, boolean attached) throws Exception {
        Path file;
        AgentConfig config;
        try {
            file = configPath(args);
            config = AgentConfigParser.parse(file);
        } catch (IllegalArgumentException | AgentConfigException e) {
            System.err.println(PREFIX + e.getMessage());
            return;
        }
        BootstrapBridge.inject(inst);
        AgentInstaller.install(config, inst, attached);
    }

    /** {@code config=/path/locks.conf} (the only argument), or system property {@code lockwarden.agent.config}. */
    static Path configPath(String args) {
        String path = System.getProperty("lockwarden.agent.config");
        if (args != null && !args.isBlank()) {
            for (String part : args.split(",")) {
                String p = part.strip();
                if (p.startsWith("config=") && p.length() > "config=".length()) {
                    path = p.substring("config=".length());
                } else {
                    throw new IllegalArgumentException("unknown agent argument '" + p
                            + "', nothing installed — write -javaagent:lock-agent.jar=config=/path/to/locks.conf");
                }
            }
        }
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("no config file given, nothing installed — write "
                    + "-javaagent:lock-agent.jar=config=/path/to/locks.conf (or -Dlockwarden.agent.config=/path/to/locks.conf)");
        }
        return Path.of(path);
    }
}
