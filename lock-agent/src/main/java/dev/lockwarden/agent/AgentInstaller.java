package dev.lockwarden.agent;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.pool.TypePool;

/**
 * Installs the transformation for a valid config: only classes a rule names (and, for patterns, only those declaring
 * a matching method, so every other class keeps its exact bytes), never JDK, agent or generated proxy classes.
 * Every class the JVM loads first meets a raw-name check ({@link NameFilter}); only candidates are read and planned
 * ({@link GatedTransformer}). Classes loaded before the agent are retransformed.
 */
final class AgentInstaller {
    private AgentInstaller() {}

    /**
     * The start failed after the transformer was added, so classes may already be instrumented: the transformer is
     * removed again and the bridge keeps a dispatcher that fails every call for good ({@link FailedStart}), so those
     * classes never run without their lock and no later start can reuse their binding ids. The message says so.
     */
    static final class PartWay extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PartWay(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Installs; returns the report (which, after an attach, already lists the retransformed methods). Every step that
     * can fail without the JVM having changed comes before the transformer is added; a failure there undoes it all
     * (the exception is rethrown). A failure from adding the transformer on ends in {@link PartWay}.
     */
    static AgentReport install(AgentConfig config, Instrumentation inst, boolean attached) {
        AgentRuntime runtime = new AgentRuntime(config);
        if (!LockBridge.install(runtime)) {
            throw new IllegalStateException("the agent's bridge already has a dispatcher: another copy of the agent is"
                    + " installed in this JVM, or an earlier start failed part-way (restart the JVM)");
        }
        Thread hook = null;
        List<Thread> started = new ArrayList<>(2);
        GatedTransformer transformer = null;
        FailedStart failed = null;
        boolean added = false;
        try {
            AgentReport report = new AgentReport(config);
            report.started(attached);
            MethodPlanner planner = new MethodPlanner(config.rules());
            NameFilter names = new NameFilter(config.rules());
            transformer = new GatedTransformer(names, planner, new Binder(runtime, report), report, inst);
            failed = new FailedStart(runtime);
            hook = AgentShutdown.register(runtime, report, config.agent().drainTimeout());
            // built now, started once the loaded classes are retransformed (the report counts those as matched)
            Thread unmatched = report.unmatchedReport(config.agent().reportUnmatchedAfter());
            Thread jmx = AgentMBean.inBackground(runtime, report, config);
            added = true; // set before the call: should it throw, the transformer may still be there
            inst.addTransformer(transformer, true);
            retransformLoaded(inst, names, planner, transformer);
            InjectedFault.at("install-end", "");
            unmatched.start();
            started.add(unmatched);
            jmx.start();
            started.add(jmx);
            return report;
        } catch (RuntimeException | Error e) {
            if (!added) {
                stop(hook, started);
                LockBridge.uninstall(runtime);
                throw e;
            }
            PartWay partWay = failedPartWay(inst, transformer, runtime, failed, e);
            stop(hook, started);
            throw partWay;
        }
    }

    /** Classes may be woven against {@code runtime}: they fail from now on; classes loading later stay unwoven. */
    private static PartWay failedPartWay(
            Instrumentation inst,
            GatedTransformer transformer,
            AgentRuntime runtime,
            FailedStart failed,
            Throwable cause) {
        failed.cause = cause;
        LockBridge.replaceForGood(runtime, failed);
        try {
            inst.removeTransformer(transformer);
        } catch (Throwable e) { // the classes it weaves from now on fail every call too: the bridge stays failed
            cause.addSuppressed(e);
        }
        return new PartWay(
                "start-up failed part-way, after the agent began instrumenting classes (" + cause + "): the agent is"
                        + " not active. Methods it instrumented before the failure fail on every call (they never run"
                        + " without their lock); classes loaded from now on are not instrumented. The agent cannot be"
                        + " started again in this JVM: restart the JVM to run with it, and report this message.",
                cause);
    }

    /** Undoes the shutdown hook and stops the background threads of a start that failed. */
    private static void stop(Thread hook, List<Thread> started) {
        for (Thread t : started) {
            t.interrupt();
        }
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is shutting down already: the hook runs and drains what is running
            }
        }
    }

    /**
     * What the bridge keeps after a start failed part-way: every call of a method woven before the failure fails
     * naming the method; a call that took its lock before the failure still releases it through the runtime.
     */
    private static final class FailedStart implements LockBridge.Dispatcher {
        private final AgentRuntime runtime;
        volatile Throwable cause;

        FailedStart(AgentRuntime runtime) {
            this.runtime = runtime;
        }

        @Override
        public Object enter(int id, Object[] args) {
            String method;
            try {
                method = runtime.method(id);
            } catch (RuntimeException e) {
                method = null;
            }
            return new LockBridge.Skip(new IllegalStateException(AgentLog.PREFIX
                    + (method != null ? method : "this method") + " was instrumented by an agent start that failed"
                    + " part-way (" + cause + "), so it fails instead of running without its lock; restart the JVM"));
        }

        @Override
        public Throwable exit(Object state, Throwable thrown) {
            return runtime.exit(state, thrown);
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
