package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every internal failure of the agent on a class a rule names — injected through the test-only
 * {@code lockwarden.agent.testFault} property at each point — ends with the method failing instead of running
 * without its lock; where even failing closed fails, the JVM stops before the class is used. Not only exceptions:
 * an {@link Error} (stack overflow, out of memory, a failed assertion) or a checked exception thrown out of a
 * transformer is ignored by the JDK, which then defines the class unwoven — so those fail closed too.
 */
@Timeout(180)
class InternalFailureIT extends RedisAgentTestBase {
    private static final String RULE = "com.acme.legacy.Guarded#pay key=\"pay:{0}\"";
    private static final String CLASS = "com.acme.legacy.Guarded";

    @ParameterizedTest
    @ValueSource(strings = {"read", "plan", "bind", "weave", "module"})
    void aFailureWhileTheClassIsDefinedFailsItClosed(String point) throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.testFault=" + point + ":" + CLASS),
                Map.of(),
                "call")) {
            assertEquals(3, app.waitFor(RUN), "the call must fail\n" + app);
            assertFalse(app.stdout().contains("BODY RAN"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stdout()
                            .contains("FAILED java.lang.IllegalStateException: lockwarden-agent: " + CLASS
                                    + " could not be instrumented (java.lang.IllegalStateException: injected fault at "
                                    + point),
                    app.toString());
            assertTrue(app.stderr().contains("could not instrument " + CLASS + " in class loader app"), app.toString());
            assertTrue(app.stderr().contains(config + ":2"), "names the rule line\n" + app);
            assertFalse(app.stderr().contains("WITHOUT locks"), app.toString());
        }
    }

    @ParameterizedTest
    @CsvSource({
        "weave, StackOverflowError",
        "plan, OutOfMemoryError",
        "read, AssertionError",
        "bind, Exception",
        "module, StackOverflowError"
    })
    void anErrorWhileTheClassIsDefinedFailsItClosed(String point, String kind) throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.testFault=" + point + ":" + CLASS + ":" + kind),
                Map.of(),
                "call")) {
            assertEquals(3, app.waitFor(RUN), "the call must fail\n" + app);
            assertFalse(app.stdout().contains("BODY RAN"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stdout()
                            .contains("FAILED java.lang.IllegalStateException: lockwarden-agent: " + CLASS
                                    + " could not be instrumented (java.lang." + kind + ": injected fault at " + point),
                    app.toString());
            assertTrue(app.stderr().contains("could not instrument " + CLASS + " in class loader app"), app.toString());
            assertTrue(app.stderr().contains(config + ":2"), "names the rule line\n" + app);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"StackOverflowError", "OutOfMemoryError", "AssertionError"})
    void whenFailingClosedThrowsAnErrorTheJvmStops(String kind) throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(
                        ChildJvm.javaagent(config),
                        "-Dlockwarden.agent.testFault=weave:" + CLASS + ":" + kind + ",closed:" + CLASS + ":" + kind),
                Map.of(),
                "call")) {
            assertEquals(Halt.EXIT_INTERNAL, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), "the body never runs unlocked\n" + app);
            assertFalse(app.stdout().contains("FAILED"), "the class is never used\n" + app);
            assertTrue(
                    app.stderr().contains("stopping the JVM (exit " + Halt.EXIT_INTERNAL + "): " + CLASS),
                    app.toString());
            assertTrue(app.stderr().contains("java.lang." + kind + ": injected fault at closed"), app.toString());
        }
    }

    @Test
    void whenFailingClosedFailsTooTheJvmStopsBeforeTheClassIsUsed() throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.testFault=weave:" + CLASS + ",closed:" + CLASS),
                Map.of(),
                "call")) {
            assertEquals(Halt.EXIT_INTERNAL, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), "the body never runs unlocked\n" + app);
            assertFalse(app.stdout().contains("FAILED"), "the class is never used\n" + app);
            assertTrue(
                    app.stderr().contains("stopping the JVM (exit " + Halt.EXIT_INTERNAL + "): " + CLASS),
                    app.toString());
            assertTrue(
                    app.stderr().contains(config + ":2") && app.stderr().contains("injected fault at closed"),
                    app.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"retransform", "weave", "read", "bind"})
    void aFailureWhileAttachRetransformsFailsTheLoadedClassClosed(String point) throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of("-Dlockwarden.agent.testFault=" + point + ":" + CLASS),
                Map.of(),
                "attach")) {
            app.awaitLine("READY paid warm", RUN);
            try (ChildJvm cli = ChildJvm.cli("attach", String.valueOf(app.pid()), config.toString())) {
                cli.waitFor(RUN);
            }
            app.send("go");
            assertEquals(3, app.waitFor(RUN), "the call must fail\n" + app);
            assertFalse(app.stdout().contains("BODY RAN p1"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stdout()
                            .contains("FAILED java.lang.IllegalStateException: lockwarden-agent: " + CLASS
                                    + " could not be instrumented"),
                    app.toString());
            assertTrue(
                    app.stderr().contains(config + ":2") && app.stderr().contains("injected fault at " + point),
                    app.toString());
            assertFalse(app.stderr().contains("WITHOUT locks"), app.toString());
        }
    }

    @ParameterizedTest
    @CsvSource({"retransform, StackOverflowError", "weave, AssertionError", "read, OutOfMemoryError"})
    void anErrorWhileAttachRetransformsFailsTheLoadedClassClosed(String point, String kind) throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of("-Dlockwarden.agent.testFault=" + point + ":" + CLASS + ":" + kind),
                Map.of(),
                "attach")) {
            app.awaitLine("READY paid warm", RUN);
            try (ChildJvm cli = ChildJvm.cli("attach", String.valueOf(app.pid()), config.toString())) {
                cli.waitFor(RUN);
            }
            app.send("go");
            assertEquals(3, app.waitFor(RUN), "the call must fail\n" + app);
            assertFalse(app.stdout().contains("BODY RAN p1"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stdout()
                            .contains("FAILED java.lang.IllegalStateException: lockwarden-agent: " + CLASS
                                    + " could not be instrumented (java.lang." + kind),
                    app.toString());
            assertTrue(app.stderr().contains(config + ":2"), app.toString());
        }
    }

    @Test
    void whenALoadedClassCannotBeMadeToFailTheJvmStopsBeforeItRunsAgain() throws Exception {
        Path config = config("fault.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of("-Dlockwarden.agent.testFault=weave:" + CLASS + ",closed:" + CLASS),
                Map.of(),
                "attach")) {
            app.awaitLine("READY paid warm", RUN);
            try (ChildJvm cli = ChildJvm.cli("attach", String.valueOf(app.pid()), config.toString())) {
                cli.waitFor(RUN);
            }
            assertEquals(Halt.EXIT_INTERNAL, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN p1"), "the body never runs unlocked\n" + app);
            assertTrue(
                    app.stderr().contains("stopping the JVM (exit " + Halt.EXIT_INTERNAL + "): " + CLASS),
                    app.toString());
            assertTrue(
                    app.stderr().contains(config + ":2") && app.stderr().contains("injected fault at closed"),
                    app.toString());
        }
    }
}
