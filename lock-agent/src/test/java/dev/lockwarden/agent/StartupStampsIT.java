package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code -Dlockwarden.agent.stamps=true} prints one line per start-up step, in order, with its milliseconds and the
 * wall clock; without the property nothing is printed. And the agent's own code spins no lambda class before
 * {@code main} (nor does the shaded lock-core code it calls there), and its config check and pre-check load no regular expression (their first use is start-up time;
 * the JVM alone loads neither).
 */
@Timeout(120)
class StartupStampsIT extends RedisAgentTestBase {
    private static final Pattern STAMP = Pattern.compile("lockwarden-agent stamp (\\S+) (\\d+\\.\\d) ms at (\\d{13})");
    private static final List<String> STEPS = List.of(
            "premain-entered",
            "args",
            "config",
            "pre-check",
            "bridge",
            "install",
            "premain-done",
            "until-weave",
            "woven");

    @Test
    void stampsNameEveryStepInOrderOnlyWhenAsked() throws Exception {
        Path classes = compile(
                "stamp",
                "App",
                "  public String pay(String id) { return \"paid \" + id; }\n"
                        + "  public static void main(String[] a) { System.out.println(new App().pay(\"s1\")); }\n");
        Path config = config("stamps.conf", "com.acme.stamp.App#pay key=\"stamp:{0}\"");

        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(
                        java,
                        "-Dlockwarden.agent.stamps=true",
                        ChildJvm.javaagent(config),
                        "-cp",
                        classes.toString(),
                        "com.acme.stamp.App")
                .start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("paid s1"), app.toString());
            List<String> steps = new ArrayList<>();
            long previous = 0;
            Matcher m = STAMP.matcher(app.stderr());
            while (m.find()) {
                steps.add(m.group(1));
                long at = Long.parseLong(m.group(3));
                assertTrue(at >= previous, "wall clock in order\n" + app);
                previous = at;
            }
            assertEquals(STEPS, steps, app.toString());
        }
        try (ChildJvm app = ChildJvm.of(new ProcessBuilder(
                        java,
                        "-Xlog:class+load=info:stdout",
                        ChildJvm.javaagent(config),
                        "-cp",
                        classes.toString(),
                        "com.acme.stamp.App")
                .start())) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stderr().contains("instrumented com.acme.stamp.App#pay"), app.toString());
            assertFalse(app.stderr().contains("lockwarden-agent stamp"), "no stamps unless asked\n" + app);
            String out = app.stdout();
            int main = out.indexOf(" com.acme.stamp.App source:");
            assertTrue(main > 0, "the app's class load is logged\n" + app);
            String beforeMain = out.substring(0, main);
            assertTrue(
                    beforeMain.contains(" dev.lockwarden.agent.config.AgentConfigParser source:"),
                    "the agent ran first\n" + app);
            assertFalse(
                    Pattern.compile(" dev\\.lockwarden\\.agent\\.[\\w.$]*\\$\\$Lambda")
                            .matcher(beforeMain)
                            .find(),
                    "no lambda of the agent's code (its own or the shaded lock-core's, e.g. KeyTemplate) before main\n"
                            + beforeMain);
            // up to the install: the install starts the start-up report's writer thread, whose java.util.logging set-up
            // (the host's logging) may use regular expressions itself
            int install = beforeMain.indexOf(" dev.lockwarden.agent.AgentInstaller source:");
            assertTrue(install > 0, app.toString());
            assertFalse(
                    beforeMain.substring(0, install).contains(" java.util.regex.Pattern "),
                    "no regular expression in the config check and pre-check\n" + beforeMain);
        }
    }

    /**
     * An application that is done at once: its JVM shuts down while the start-up report may still be queued, and
     * java.util.logging's shutdown hook can reset its handlers before the agent's runs — every line still arrives
     * (through the logger or, once the shutdown began, on stderr). Eight runs: the order of the hooks varies.
     */
    @Test
    void aShortLivedApplicationGetsTheWholeReport() throws Exception {
        Path classes = compile(
                "brief",
                "Job",
                "  public String run(String id) { return id; }\n"
                        + "  public static void main(String[] a) { new Job(); }\n");
        Path config = config("brief.conf", "com.acme.brief.Job#run key=\"brief:{0}\"");
        for (int i = 0; i < 8; i++) {
            try (ChildJvm app = ChildJvm.of(new ProcessBuilder(
                            java, ChildJvm.javaagent(config), "-cp", classes.toString(), "com.acme.brief.Job")
                    .start())) {
                assertEquals(0, app.waitFor(RUN), app.toString());
                String err = app.stderr();
                assertTrue(err.contains("lock rule(s) from "), "run " + i + ": the first report line\n" + app);
                assertTrue(
                        err.contains("brief.conf:2: com.acme.brief.Job#run → "),
                        "run " + i + ": the rule line\n" + app);
                assertTrue(
                        err.contains("instrumented com.acme.brief.Job#run(java.lang.String)"),
                        "run " + i + ": the instrumented line\n" + app);
            }
        }
    }

    private final String java =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    /** Compiles {@code com.acme.<pkg>.<name>} with {@code body} into a class directory of its own. */
    private Path compile(String pkg, String name, String body) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/com/acme/" + pkg));
        Files.writeString(
                src.resolve(name + ".java"),
                "package com.acme." + pkg + ";\npublic class " + name + " {\n" + body + "}\n");
        Path classes = Files.createDirectories(dir.resolve(pkg + "-classes"));
        assertEquals(
                0,
                ToolProvider.getSystemJavaCompiler()
                        .run(
                                null,
                                null,
                                null,
                                "-d",
                                classes.toString(),
                                src.resolve(name + ".java").toString()),
                "javac");
        return classes;
    }
}
