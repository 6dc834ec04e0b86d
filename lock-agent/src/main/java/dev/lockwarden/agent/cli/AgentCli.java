package dev.lockwarden.agent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar lock-agent.jar attach|check ...}: the agent jar's command line. */
@Command(
        name = "java -jar lock-agent.jar",
        mixinStandardHelpOptions = true,
        versionProvider = AgentCli.Version.class,
        description = {
            "Lockwarden lock-agent: puts Redis locks around methods named in a config file.",
            "As a Java agent: java -javaagent:lock-agent.jar=config=/path/locks.conf -jar app.jar",
            "Exit status: 0 = done, 1 = a problem (listed), 2 = wrong usage."
        },
        subcommands = {AttachCommand.class, CheckCommand.class, CommandLine.HelpCommand.class})
public final class AgentCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line; exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line; returns the exit status. */
    public static int run(String... args) {
        return new CommandLine(new AgentCli()).execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: attach or check");
    }

    /** The jar's Implementation-Version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = AgentCli.class.getPackage().getImplementationVersion();
            return new String[] {"lock-agent " + (v == null ? "(development build)" : v)};
        }
    }
}
