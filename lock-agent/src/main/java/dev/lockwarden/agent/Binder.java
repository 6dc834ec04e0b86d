package dev.lockwarden.agent;

import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.MethodPlanner.Planned;
import dev.lockwarden.agent.bootstrap.LockBridge;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one class's plan into what gets woven ({@link ClassWeaver}): per
 * method a binding id in the runtime, or — when the class loader cannot see the bootstrap bridge — the message every
 * call fails with. Reports each instrumented method and every problem. Nothing configured runs unlocked: a rejected
 * key still gets a binding, whose every call fails.
 */
final class Binder {
    private final AgentRuntime runtime;
    private final AgentReport report;

    /** One method to weave: {@code failMessage} set means "throw it on every call", else lock with {@code id}. */
    record Woven(Planned planned, int id, String failMessage) {}

    Binder(AgentRuntime runtime, AgentReport report) {
        this.runtime = runtime;
        this.report = report;
    }

    List<Woven> bind(Plan plan, ClassLoader loader) {
        for (String problem : plan.problems()) {
            report.problem(problem);
        }
        boolean reachable = bridgeReachable(loader);
        List<Woven> woven = new ArrayList<>();
        for (Planned p : plan.methods()) {
            if (!reachable) {
                String message = p.signature() + " is lock-wrapped (" + p.rule().where()
                        + ") but its class loader " + AgentReport.describe(loader) + " cannot see "
                        + LockBridge.class.getName() + ", so every call fails instead of running unlocked — let the"
                        + " loader delegate package dev.lockwarden.agent.bootstrap to the boot class loader (JBoss Modules:"
                        + " -Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap; OSGi:"
                        + " -Dorg.osgi.framework.bootdelegation=dev.lockwarden.agent.bootstrap)";
                report.problem(message);
                woven.add(new Woven(p, -1, AgentLog.PREFIX + message));
                continue;
            }
            if (p.problem() != null) {
                report.problem(p.problem() + "; every call of " + p.signature() + " fails until the config is fixed");
            }
            int id = runtime.register(
                    p.rule(), p.signature() + p.method().getDescriptor(), p.methodId(), p.key(), p.problem());
            woven.add(new Woven(p, id, null));
        }
        return woven;
    }

    /** Logs the instrumented methods, once the class was woven. */
    void reportWoven(List<Woven> woven, ClassLoader loader) {
        for (Woven w : woven) {
            Planned p = w.planned();
            report.instrumented(
                    p,
                    loader,
                    w.failMessage() != null
                            ? "every call FAILS: bridge unreachable"
                            : p.problem() != null ? "every call FAILS: key rejected" : null);
        }
    }

    /** The loader resolves the bridge to the one in the boot loader (not to nothing, nor to a copy). */
    static boolean bridgeReachable(ClassLoader loader) {
        if (loader == null) {
            return true;
        }
        try {
            return Class.forName(LockBridge.class.getName(), false, loader) == LockBridge.class;
        } catch (ClassNotFoundException | LinkageError | RuntimeException e) {
            return false;
        }
    }
}
