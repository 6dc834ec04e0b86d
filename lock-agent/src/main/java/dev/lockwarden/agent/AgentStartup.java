package dev.lockwarden.agent;

import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigException;
import dev.lockwarden.agent.config.AgentConfigParser;
import dev.lockwarden.agent.config.AgentSettings;
import java.lang.instrument.Instrumentation;

/**
 * Checks everything that can be checked before touching the JVM — arguments, the config file, the classes on
 * the class path that rules name — then injects the bridge and installs. Kept free of references to the bootstrap
 * bridge so the bridge can be injected before anything loads it.
 */
final class AgentStartup {
    private AgentStartup() {}

    static AgentReport start(AgentArgs args, Instrumentation inst, boolean attached) throws StartupException {
        AgentConfig config = config(args);
        try {
            BootstrapBridge.inject(inst);
            StartupStamps.mark("bridge");
            AgentReport report = AgentInstaller.install(config, inst, attached);
            StartupStamps.mark("install");
            return report;
        } catch (AgentInstaller.PartWay e) {
            // classes may have been instrumented already: they fail every call now, and the JVM must be restarted
            throw StartupException.partWay(e.getMessage(), e.getCause());
        } catch (Exception | Error e) { // Errors too (stack overflow, out of memory): a message, never an abort
            // an internal failure, not a config error: onConfigError = continue does not let the rules go unenforced
            throw StartupException.internal("start-up failed: " + e, e);
        }
    }

    /**
     * The parsed and pre-checked config; every problem in one exception (an internal failure of the pre-check in one
     * that is never continued past).
     */
    static AgentConfig config(AgentArgs args) throws StartupException {
        AgentConfig config;
        try {
            config = AgentConfigParser.parse(args.config());
        } catch (AgentConfigException e) {
            throw new StartupException(e.getMessage(), e.continueOnError(), e);
        }
        StartupStamps.mark("config");
        var problems = Preflight.check(config, TypePools.of(ClassLoader.getSystemClassLoader()));
        if (!problems.isEmpty()) {
            AgentConfigException e = new AgentConfigException(
                    config.file(), problems, config.agent().continueOnError());
            throw new StartupException(e.getMessage(), e.continueOnError(), e);
        }
        StartupStamps.mark("pre-check");
        return config;
    }

    /** For problems found before the config could be read (bad arguments). */
    static StartupException arguments(IllegalArgumentException e) {
        return new StartupException(e.getMessage(), AgentSettings.continueOnErrorProperty(), e);
    }
}
