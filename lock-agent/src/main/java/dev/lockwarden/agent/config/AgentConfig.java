package dev.lockwarden.agent.config;

import java.util.List;
import java.util.Map;

/**
 * A parsed, valid lock-agent config file.
 *
 * @param file     the file it came from (for messages)
 * @param settings {@code lockwarden.*} settings given in the file (full property names)
 * @param agent    settings of the agent itself
 * @param rules    the lock rules, in file order
 */
public record AgentConfig(String file, Map<String, String> settings, AgentSettings agent, List<LockRule> rules) {
    public AgentConfig {
        settings = Map.copyOf(settings);
        rules = List.copyOf(rules);
    }

    /** Setting names only: values may hold passwords (Redis URIs, {@code tls.*-password}). */
    @Override
    public String toString() {
        return "AgentConfig[file=" + file + ", settings=" + new java.util.TreeSet<>(settings.keySet()) + ", agent="
                + agent + ", rules=" + rules.size() + "]";
    }
}
