package dev.lockwarden.agent;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's arguments: {@code config=/path/locks.conf} (else {@code -Dlockwarden.agent.config}, else the
 * {@code LOCKWARDEN_AGENT_CONFIG} environment variable) and, from the {@code attach} command,
 * {@code report=/path} where the outcome is written for the attaching side.
 *
 * @param config the config file
 * @param report where to write the outcome, if asked
 */
record AgentArgs(Path config, Optional<Path> report) {
    static final String ENV = "LOCKWARDEN_AGENT_CONFIG";
    static final String PROPERTY = "lockwarden.agent.config";

    static AgentArgs parse(String args) {
        return parse(args, System.getenv());
    }

    static AgentArgs parse(String args, Map<String, String> env) {
        String config = null;
        Path report = null;
        if (args != null && !args.isBlank()) {
            for (String part : args.split(",")) {
                String p = part.strip();
                if (p.startsWith("config=") && p.length() > "config=".length()) {
                    config = p.substring("config=".length());
                } else if (p.startsWith("report=") && p.length() > "report=".length()) {
                    report = Path.of(p.substring("report=".length()));
                } else {
                    throw new IllegalArgumentException("unknown agent argument '" + p
                            + "' — write -javaagent:lock-agent.jar=config=/path/to/locks.conf");
                }
            }
        }
        if (config == null) {
            config = System.getProperty(PROPERTY);
        }
        if (config == null || config.isBlank()) {
            config = env.get(ENV);
        }
        if (config == null || config.isBlank()) {
            throw new IllegalArgumentException(
                    "no config file given — write -javaagent:lock-agent.jar=config=/path/to/locks.conf" + " (or -D"
                            + PROPERTY + "=/path/to/locks.conf, or the environment variable " + ENV + ")");
        }
        return new AgentArgs(Path.of(config), Optional.ofNullable(report));
    }

    /** The {@code report=} file even when the rest is broken, so the attaching side always gets an answer. */
    static Optional<Path> reportOf(String args) {
        if (args != null) {
            for (String part : args.split(",")) {
                if (part.strip().startsWith("report=") && part.strip().length() > "report=".length()) {
                    return Optional.of(Path.of(part.strip().substring("report=".length())));
                }
            }
        }
        return Optional.empty();
    }
}
