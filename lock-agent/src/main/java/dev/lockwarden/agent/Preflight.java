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
 * Classes found only by other loaders (web apps) are checked when they load.
 */
final class Preflight {
    private Preflight() {}

    static List<String> check(AgentConfig config, TypePool classPath) {
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
                TypePool.Resolution type = classPath.describe(name);
                if (type.isResolved()) {
                    problems.addAll(problems(planner.plan(type.resolve(), classPath)));
                }
            } catch (RuntimeException e) {
                problems.add("class " + name + " could not be read to check its rules: " + e);
            }
        }
        return problems;
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
