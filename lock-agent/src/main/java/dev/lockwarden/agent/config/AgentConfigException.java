package dev.lockwarden.agent.config;

import java.util.List;

/** A lock-agent config file is invalid; {@link #problems()} lists every problem as {@code file:line: problem — fix}. */
public final class AgentConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<String> problems;

    public AgentConfigException(String file, List<String> problems) {
        super(message(file, problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem found, one per entry, each starting with {@code file:line:}. */
    public List<String> problems() {
        return problems;
    }

    private static String message(String file, List<String> problems) {
        StringBuilder sb = new StringBuilder();
        sb.append("lock-agent config ").append(file).append(" has ").append(problems.size())
                .append(problems.size() == 1 ? " problem" : " problems")
                .append("; the agent installed NOTHING and the application runs without agent locks:");
        for (String p : problems) {
            sb.append(System.lineSeparator()).append("  ").append(p);
        }
        return sb.toString();
    }
}
