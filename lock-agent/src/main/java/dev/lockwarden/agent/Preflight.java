package dev.lockwarden.agent;

import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.pool.TypePool;

/**
 * Before {@code main}: the classes that rules name exactly and that are on the class path are read as class files
 * (not loaded) and planned, so a missing method or a rejected key stops the start instead of surfacing later.
 * Classes found only by other loaders (web apps) are checked when they load. A class that cannot be read or planned
 * at all (a class file newer than the bundled ASM reads, a failure of the agent) is an internal failure, not a config
 * problem: it stops the start even with {@code onConfigError = continue}, which would otherwise let the rules'
 * methods run unlocked.
 */
final class Preflight {
    private Preflight() {}

    /**
     * The config problems found in the class files on {@code classPath}.
     *
     * @throws StartupException an internal failure while reading or planning a class (never continued past)
     */
    static List<String> check(AgentConfig config, TypePool classPath) throws StartupException {
        MethodPlanner planner = new MethodPlanner(config.rules());
        Set<String> classes = new LinkedHashSet<>();
        for (LockRule r : config.rules()) {
            if (r.exactClass()) {
                classes.add(r.className());
            }
        }
        List<String> problems = new ArrayList<>();
        for (String name : classes) {
            try {
                InjectedFault.at("preflight", name);
                TypePool.Resolution type = classPath.describe(name);
                if (type.isResolved()) {
                    problems.addAll(problems(planner.plan(type.resolve(), classPath)));
                }
            } catch (Throwable e) { // Errors and (sneaky) checked exceptions too: none passes as a config problem
                throw StartupException.internal(internalFailure(config, name, e), e);
            }
        }
        return problems;
    }

    private static String internalFailure(AgentConfig config, String name, Throwable e) {
        List<String> rules = new ArrayList<>();
        for (LockRule r : config.rules()) {
            if (r.exactClass() && r.className().equals(name)) {
                rules.add(r.where());
            }
        }
        return "internal failure of the agent, not a config error: the pre-check could not read or plan the class "
                + name + " (named by " + String.join(", ", rules) + ") from the class path: " + e
                + ". If the class file is newer than this lock-agent reads (compiled for a newer JDK), use a"
                + " lock-agent release that supports it; otherwise report this message with the class file.";
    }

    static List<String> problems(Plan plan) {
        List<String> problems = new ArrayList<>(plan.problems());
        for (MethodPlanner.Planned p : plan.methods()) {
            if (p.problem() != null) {
                problems.add(p.problem());
            }
        }
        return problems;
    }
}
