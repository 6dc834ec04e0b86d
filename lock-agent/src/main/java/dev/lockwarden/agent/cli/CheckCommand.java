package dev.lockwarden.agent.cli;

import dev.lockwarden.agent.DryRun;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigException;
import dev.lockwarden.agent.config.AgentConfigParser;
import dev.lockwarden.agent.config.LockRule;
import java.io.File;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The dry run for deploy pipelines: what each rule would instrument in the application, and every problem. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Checks a config against the application's classes without running it: lists, per rule, the methods",
            "it would instrument, every rule that matches nothing, and every problem (missing method, rejected key).",
            "Exit status 1 on any problem or unmatched rule."
        })
final class CheckCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "<config>", description = "the lock-agent config file")
    Path config;

    @Parameters(
            index = "1",
            paramLabel = "<classpath>",
            description = "the application: jar files and class directories, separated by ':' (';' on Windows)")
    String classPath;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        AgentConfig parsed;
        try {
            parsed = AgentConfigParser.parse(config);
        } catch (AgentConfigException e) {
            out.println(e.getMessage());
            out.println("FAILED: the agent would stop the JVM before main");
            return 1;
        }
        List<Path> entries = Arrays.stream(classPath.split(File.pathSeparator))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .toList();
        DryRun.Result result = DryRun.run(parsed, entries);
        out.println("checked " + parsed.rules().size() + " rule(s) of " + config + " against " + result.classes()
                + " class(es)");
        for (LockRule rule : parsed.rules()) {
            List<String> methods = result.methods().get(rule.where());
            out.println(rule.where() + ": " + rule.spec() + " → "
                    + (methods.isEmpty() ? "matches NOTHING" : methods.size() + " method(s)"));
            methods.forEach(m -> out.println("    " + m));
        }
        result.unreadable().forEach(u -> out.println("note: could not resolve " + u + "; subtype rules cannot see it"));
        if (!result.problems().isEmpty()) {
            out.println(result.problems().size() + " problem(s):");
            result.problems().forEach(p -> out.println("  " + p));
        }
        if (result.ok()) {
            out.println("OK");
            return 0;
        }
        out.println("FAILED: " + result.problems().size() + " problem(s), "
                + result.unmatched().size() + " rule(s) matching nothing");
        return 1;
    }
}
