package dev.lockwarden.agent;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import java.lang.instrument.Instrumentation;
import net.bytebuddy.pool.TypePool;

/**
 * Installs the transformation for a valid config: only classes a rule names (and, for patterns, only those declaring
 * a matching method, so every other class keeps its exact bytes), never JDK, agent or generated proxy classes.
 * Every class the JVM loads first meets a raw-name check ({@link NameFilter}); only candidates are read and planned
 * ({@link GatedTransformer}). Classes loaded before the agent are retransformed.
 */
final class AgentInstaller {
    private AgentInstaller() {}

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
            NameFilter names = new NameFilter(config.rules());
            GatedTransformer transformer =
                    new GatedTransformer(names, planner, new Binder(runtime, report), report, inst);
            inst.addTransformer(transformer, true);
            retransformLoaded(inst, names, planner, transformer);
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
     * candidates are planned (from their class files). A candidate whose planning or retransformation fails is
     * retransformed once more to fail closed; when even that is refused the JVM stops ({@link Halt}).
     */
    private static void retransformLoaded(
            Instrumentation inst, NameFilter names, MethodPlanner planner, GatedTransformer transformer) {
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getClassLoader() == null
                    || c.isArray()
                    || c.isPrimitive()
                    || !inst.isModifiableClass(c)
                    || !names.mayMatch(c.getName().replace('.', '/'))) {
                continue;
            }
            try {
                if (planned(c, planner)) {
                    InjectedFault.at("retransform", c.getName());
                    inst.retransformClasses(c);
                }
            } catch (Throwable e) { // Errors too: an escaping one would leave the class running unlocked
                transformer.closeOnRetransform(c, e);
                try {
                    inst.retransformClasses(c);
                } catch (Throwable again) {
                    Halt.stop("the already loaded " + c.getName() + " in class loader "
                            + AgentReport.describe(c.getClassLoader())
                            + " could not be retransformed (" + e + ") nor made to fail (" + again
                            + "), and the methods "
                            + String.join(", ", names.rulesNaming(c.getName().replace('.', '/')))
                            + " name must not run without their lock");
                }
            }
        }
    }

    /** Whether a rule names the class (its class file unavailable: let the transformer decide on the JVM's bytes). */
    private static boolean planned(Class<?> c, MethodPlanner planner) {
        byte[] classFile = TypePools.read(c.getClassLoader(), c.getName());
        if (classFile == null) {
            return true;
        }
        TypePool pool = TypePools.of(c.getClassLoader(), c.getName(), classFile);
        return planner.named(pool.describe(c.getName()).resolve(), pool);
    }
}
