package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.lang.instrument.Instrumentation;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Installs the transformation for a valid config: only classes a rule names (and, for patterns, only those declaring
 * a matching method, so every other class keeps its exact bytes), never JDK, agent or generated proxy classes.
 * Every class the JVM loads first meets a raw-name check ({@link NameFilter}); only candidates reach Byte Buddy
 * ({@link ClassWeaver}). Classes loaded before the agent are retransformed.
 */
final class AgentInstaller {
    private AgentInstaller() {
    }

    /** Installs; returns the report (which, after an attach, already lists the retransformed methods). */
    static AgentReport install(AgentConfig config, Instrumentation inst, boolean attached) {
        AgentRuntime runtime = new AgentRuntime(config);
        if (!LockBridge.install(runtime)) {
            throw new IllegalStateException("another copy of the agent is already installed in this JVM");
        }
        try {
            AgentReport report = new AgentReport(config);
            report.started(attached);
            MethodPlanner planner = new MethodPlanner(config.rules());
            ElementMatcher.Junction<TypeDescription> types = not(isSynthetic().or(nameContains("$$"))
                    .or(nameContains("$ByteBuddy$")).or(nameContains("$Proxy"))).and(types(config));
            NameFilter names = new NameFilter(config.rules());
            inst.addTransformer(new GatedTransformer(names,
                    new ClassWeaver(types, new RuleTransformer(planner, runtime, report), report, inst)), true);
            retransformLoaded(inst, names, types, report);
            AgentShutdown.register(runtime, report, config.agent().drainTimeout());
            report.scheduleUnmatchedReport(config.agent().reportUnmatchedAfter());
            AgentMBean.registerInBackground(runtime, report, config);
            return report;
        } catch (RuntimeException | Error e) {
            LockBridge.uninstall(runtime);
            throw e;
        }
    }

    /**
     * Classes loaded before the agent (dynamic attach, or loaded by an earlier agent's premain) that a rule names are
     * retransformed, one at a time, synchronously (an attach reports them). The name filter runs first, so only
     * candidates get a Byte Buddy type description; a class that cannot be retransformed is a reported problem.
     */
    private static void retransformLoaded(Instrumentation inst, NameFilter names, ElementMatcher<TypeDescription> types,
                                          AgentReport report) {
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getClassLoader() == null || c.isArray() || c.isPrimitive() || !inst.isModifiableClass(c)
                    || !names.mayMatch(c.getName().replace('.', '/'))) {
                continue;
            }
            try {
                if (types.matches(TypeDescription.ForLoadedType.of(c))) {
                    inst.retransformClasses(c);
                }
            } catch (Exception | LinkageError e) {
                report.problem("could not retransform the already loaded " + c.getName() + " in class loader "
                        + AgentReport.describe(c.getClassLoader()) + ", so its configured methods run WITHOUT locks: " + e);
            }
        }
    }

    /** Exact class names match by name (so a missing method is reported); patterns only where a method matches. */
    private static ElementMatcher.Junction<TypeDescription> types(AgentConfig config) {
        ElementMatcher.Junction<TypeDescription> all = none();
        for (LockRule r : config.rules()) {
            all = all.or(r.exactClass() ? RuleMatchers.types(r) : RuleMatchers.types(r).and(declaresMethod(RuleMatchers.lockable(r))));
        }
        return all;
    }
}
