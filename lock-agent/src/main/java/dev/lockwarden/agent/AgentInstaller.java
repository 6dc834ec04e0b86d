package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;

import java.lang.instrument.Instrumentation;

import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * Installs the Byte Buddy transformation for a valid config: only the classes the rules name, never
 * the agent's own or generated proxy classes; already loaded classes are retransformed when the
 * agent is attached to a running JVM.
 */
final class AgentInstaller {
    private AgentInstaller() {
    }

    static void install(AgentConfig config, Instrumentation inst, boolean attached) {
        AgentRuntime runtime = new AgentRuntime(config);
        if (!LockBridge.install(runtime)) {
            System.err.println(AgentStartup.PREFIX + "another copy of the agent is already installed; ignoring " + config.file());
            return;
        }
        RuleTransformer transformer = new RuleTransformer(config.rules(), runtime);
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly())
                .ignore(nameStartsWith("dev.lockwarden.agent.")
                        .or(isSynthetic())
                        .or(nameContains("$$"))
                        .or(nameContains("$ByteBuddy$"))
                        .or(nameContains("$Proxy")));
        if (attached) {
            builder = builder.with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
        }
        builder.type(namedOneOf(transformer.classNames().toArray(String[]::new)))
                .transform(transformer)
                .installOn(inst);
        System.err.println(AgentStartup.PREFIX + config.rules().size() + " lock rule(s) from " + config.file()
                + " active" + (attached ? " (attached)" : ""));
    }
}
