package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.is;

import java.security.ProtectionDomain;

import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.MethodPlanner.Planned;
import dev.lockwarden.agent.bootstrap.LockBridge;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;

/**
 * Applies the rules to one class as it loads: plans its methods ({@link MethodPlanner}), registers a binding per
 * method and weaves {@link LockAdvice}. A method whose key was rejected is still woven, with a binding whose
 * every call fails; a method whose class loader cannot see the bootstrap bridge gets {@link UnreachableAdvice},
 * which fails every call with the fix. Nothing configured runs unlocked.
 */
final class RuleTransformer implements AgentBuilder.Transformer {
    private final MethodPlanner planner;
    private final AgentRuntime runtime;
    private final AgentReport report;

    RuleTransformer(MethodPlanner planner, AgentRuntime runtime, AgentReport report) {
        this.planner = planner;
        this.runtime = runtime;
        this.report = report;
    }

    @Override
    public DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                                            JavaModule module, ProtectionDomain domain) {
        Plan plan = planner.plan(type);
        plan.problems().forEach(report::problem);
        boolean reachable = bridgeReachable(loader);
        DynamicType.Builder<?> b = builder;
        for (Planned p : plan.methods()) {
            if (!reachable) {
                String message = p.signature() + " is lock-wrapped (" + p.rule().where()
                        + ") but its class loader " + AgentReport.describe(loader) + " cannot see "
                        + LockBridge.class.getName() + ", so every call fails instead of running unlocked — let the"
                        + " loader delegate package dev.lockwarden.agent.bootstrap to the boot class loader (JBoss Modules:"
                        + " -Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap; OSGi:"
                        + " -Dorg.osgi.framework.bootdelegation=dev.lockwarden.agent.bootstrap)";
                report.problem(message);
                b = b.visit(Advice.withCustomMapping().bind(FailMessage.class, AgentLog.PREFIX + message).to(UnreachableAdvice.class)
                        .on(is(p.method())));
                report.instrumented(p, loader, "every call FAILS: bridge unreachable");
                continue;
            }
            if (p.problem() != null) {
                report.problem(p.problem() + "; every call of " + p.signature() + " fails until the config is fixed");
            }
            int id = runtime.register(p.rule(), p.signature() + p.method().getDescriptor(), p.methodId(), p.key(), p.problem());
            b = b.visit(Advice.withCustomMapping().bind(BindingId.class, id).to(LockAdvice.class).on(is(p.method())));
            report.instrumented(p, loader, p.problem() != null ? "every call FAILS: key rejected" : null);
        }
        return b;
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
