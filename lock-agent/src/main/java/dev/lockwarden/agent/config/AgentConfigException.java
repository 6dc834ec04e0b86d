package dev.lockwarden.agent.config;

import java.util.List;

/**
 * A lock-agent config file is invalid; {@link #problems()} lists every problem as {@code file:line: problem — fix}.
 * {@link #continueOnError()} tells whether the file (or {@code -Dlockwarden.agent.onConfigError}) asked to run on
 * uninstrumented anyway.
 */
public final class AgentConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<String> problems;
    private final boolean continueOnError;

    public AgentConfigException(String file, List<String> problems, boolean continueOnError) {
        super(message(file, problems));
        this.problems = List.copyOf(problems);
        this.continueOnError = continueOnError;
    }

    /** Every problem found, one per entry, each starting with {@code file:line:}. */
    public List<String> problems() {
        return problems;
    }

    /** Whether {@code onConfigError = continue} was set. */
    public boolean continueOnError() {
        return continueOnError;
    }

    private static String message(String file, List<String> problems) {
        StringBuilder sb = new StringBuilder();
        sb.append("lock-agent config ")
                .append(file)
                .append(" has ")
                .append(problems.size())
                .append(problems.size() == 1 ? " problem:" : " problems:");
        for (String p : problems) {
            sb.append(System.lineSeparator()).append("  ").append(p);
        }
        return sb.toString();
    }
}
