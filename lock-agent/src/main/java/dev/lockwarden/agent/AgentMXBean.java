package dev.lockwarden.agent;

import java.util.List;

/** What the agent does, readable at run time as JMX bean {@code dev.lockwarden:type=Agent}. */
public interface AgentMXBean {
    /** Each rule as {@code file:line: spec → what it matches}. */
    List<String> getRules();

    /** Every method instrumented so far, as {@code file:line: Class#method(types)}. */
    List<String> getMatchedMethods();

    /** Rules that instrumented no method so far, as {@code file:line: spec}. */
    List<String> getUnmatchedRules();

    /** Problems found while classes loaded (each one also logged at ERROR). */
    List<String> getProblems();

    /** Locked calls started. */
    long getCalls();

    /** Calls that found their lock busy. */
    long getBusy();

    /** Calls whose lock was lost while the method ran. */
    long getLost();

    /** Calls that failed or were skipped because Redis was unreachable. */
    long getStoreDown();

    /** Locked calls running now. */
    int getRunning();
}
