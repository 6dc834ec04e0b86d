package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.none;

import java.lang.instrument.Instrumentation;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the Byte Buddy transformation for a valid config: only classes a rule names (and, for patterns, only
 * those declaring a matching method, so every other class keeps its exact bytes), never JDK, agent or generated
 * proxy classes. Classes loaded before the agent are retransformed.
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
            new AgentBuilder.Default()
                    .disableClassFormatChanges()
                    .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                    .with(new ErrorListener(report))
                    // classes in named modules must be able to read the bridge's (unnamed) module
                    .assureReadEdgeTo(inst, LockBridge.class)
                    .ignore(nameStartsWith("dev.lockwarden.agent.")
                            .or(nameStartsWith("java.")).or(nameStartsWith("jdk.")).or(nameStartsWith("sun."))
                            .or(nameStartsWith("com.sun."))
                            .or(isSynthetic())
                            .or(nameContains("$$"))
                            .or(nameContains("$ByteBuddy$"))
                            .or(nameContains("$Proxy")))
                    .or(any(), isBootstrapClassLoader())
                    .type(types(config))
                    .transform(new RuleTransformer(planner, runtime, report))
                    .installOn(inst);
            AgentShutdown.register(runtime, report, config.agent().drainTimeout());
            report.scheduleUnmatchedReport(config.agent().reportUnmatchedAfter());
            AgentMBean.register(runtime, report, config);
            return report;
        } catch (RuntimeException | Error e) {
            LockBridge.uninstall(runtime);
            throw e;
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

    /** A class a rule names that cannot be transformed loads without locks: say so loudly. */
    private static final class ErrorListener extends AgentBuilder.Listener.Adapter {
        private final AgentReport report;

        ErrorListener(AgentReport report) {
            this.report = report;
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable throwable) {
            report.problem("could not instrument " + typeName + " in class loader " + AgentReport.describe(loader)
                    + ", so its configured methods run WITHOUT locks: " + throwable);
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            // reported per method by RuleTransformer
        }
    }
}
