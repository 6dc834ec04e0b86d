package dev.lockwarden.agent.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.VirtualMachine;
import dev.lockwarden.agent.LockAgent;
import dev.lockwarden.agent.config.AgentConfigException;
import dev.lockwarden.agent.config.AgentConfigParser;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Loads the agent into a running JVM; the config is checked here first, and the target's own verdict is read back. */
@Command(
        name = "attach",
        mixinStandardHelpOptions = true,
        description = {
            "Attaches the agent to a running JVM (same user, JDK 17+): classes already loaded are retransformed.",
            "The config is checked before attaching; problems found in the target (missing methods, rejected keys)",
            "are reported here too. A failed attach changes nothing in the target; fix the config and attach again.",
            "Only an internal failure after the agent began instrumenting (reported as such) leaves those methods",
            "failing on every call and refuses every later attach: restart the target then."
        })
final class AttachCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<pid>", description = "process id of the target JVM (see jps)")
    long pid;

    @Parameters(index = "1", paramLabel = "<config>", description = "the lock-agent config file")
    Path config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path file = config.toAbsolutePath();
        try {
            AgentConfigParser.parse(file);
        } catch (AgentConfigException e) {
            err.println(e.getMessage());
            err.println("not attached: nothing was changed in process " + pid);
            return 1;
        }
        Path report = Files.createTempFile("lockwarden-attach", ".txt");
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgent(agentJar().toString(), "config=" + file + ",report=" + report);
            } catch (AgentInitializationException e) {
                // the target wrote why into the report
            } finally {
                vm.detach();
            }
            String verdict = Files.readString(report, StandardCharsets.UTF_8);
            if (verdict.startsWith("OK")) {
                out.println("attached to process " + pid + " with " + file);
                verdict.lines().skip(1).forEach(out::println);
                return verdict.contains(System.lineSeparator() + "problem ") ? 1 : 0;
            }
            err.println(
                    verdict.isEmpty()
                            ? "the agent did not answer (is process " + pid + " a JVM of this user?)"
                            : verdict.substring(verdict.indexOf(System.lineSeparator()) + 1));
            if (verdict.startsWith(LockAgent.FAILED_PART_WAY)) {
                // classes may have been instrumented before the failure: "nothing was changed" would be false
                err.println("not attached, and the agent failed part-way in process " + pid
                        + ": methods it instrumented fail on every call; restart the process to attach again");
            } else {
                err.println("not attached: nothing was changed in process " + pid);
            }
            return 1;
        } finally {
            Files.deleteIfExists(report);
        }
    }

    private static Path agentJar() throws URISyntaxException {
        return Path.of(AttachCommand.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .toAbsolutePath();
    }
}
