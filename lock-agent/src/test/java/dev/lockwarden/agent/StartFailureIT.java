package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Internal failures while the agent starts — injected through the test-only {@code lockwarden.agent.testFault}
 * property — are never config errors: {@code onConfigError = continue} does not let them through, and none ends with
 * a configured method running without its lock. A failure of the pre-check before {@code main} stops the JVM (exit
 * 78); a failure after the transformer was added (part-way) leaves the methods instrumented so far failing on every
 * call, removes the transformer, says so truthfully, and refuses every later start in that JVM.
 */
@Timeout(180)
class StartFailureIT extends RedisAgentTestBase {
    private static final String CLASS = "com.acme.legacy.Guarded";
    private static final String RULE = CLASS + "#pay key=\"pay:{0}\" wait=0s";

    @Test
    void aFailureOfThePreCheckStopsTheJvmBeforeMainEvenWithContinue() throws Exception {
        Path config = config("preflight.conf", "onConfigError = continue", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.testFault=preflight:" + CLASS),
                Map.of(),
                "call")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), "the protected method never runs\n" + app);
            assertFalse(app.stdout().contains("RESULT"), "main never runs\n" + app);
            String err = app.stderr();
            assertTrue(
                    err.contains("stopping the JVM before main (exit " + LockAgent.EXIT_CONFIG + "): internal failure"
                            + " of the agent, not a config error: the pre-check could not read or plan the class "
                            + CLASS + " (named by " + config + ":3) from the class path:"
                            + " java.lang.IllegalStateException: injected fault at preflight for " + CLASS),
                    app.toString());
            assertTrue(
                    err.contains("use a lock-agent release that supports it")
                            && err.contains("onConfigError = continue does not apply to internal failures"),
                    "says what to do\n" + app);
            assertFalse(err.contains("WITHOUT ANY AGENT LOCKS"), app.toString());
            assertFalse(err.contains("set onConfigError = continue"), "continue would not help\n" + app);
        }
    }

    @Test
    void anErrorInThePreCheckStopsTheJvmBeforeMainToo() throws Exception {
        Path config = config("preflight.conf", "onConfigError = continue", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(
                        ChildJvm.javaagent(config),
                        "-Dlockwarden.agent.testFault=preflight:" + CLASS + ":StackOverflowError"),
                Map.of(),
                "call")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), app.toString());
            assertTrue(
                    app.stderr().contains("java.lang.StackOverflowError: injected fault at preflight for " + CLASS)
                            && app.stderr().contains("internal failure of the agent, not a config error"),
                    app.toString());
        }
    }

    @Test
    void controlWithoutTheFaultTheSameConfigRunsAndLocks() throws Exception {
        Path config = config("preflight.conf", "onConfigError = continue", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp", List.of(ChildJvm.javaagent(config)), Map.of(), "call")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("BODY RAN p1") && app.stdout().contains("RESULT paid p1"), app.toString());
            assertTrue(
                    app.stderr().contains("instrumented " + CLASS + "#pay(java.lang.String) (" + config + ":3)"),
                    app.toString());
        }
        // the lock is really taken: held by someone else, the call fails and the body does not run
        try (LockManager locks = LockManager.builder().redis(redis.uri()).build();
                LockHandle held = locks.acquire("pay:p1", LockOptions.ttl(Duration.ofSeconds(60)));
                ChildJvm app = ChildJvm.startMain(
                        "com.acme.legacy.GuardedApp", List.of(ChildJvm.javaagent(config)), Map.of(), "call")) {
            assertEquals(3, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), app.toString());
            assertTrue(
                    app.stdout().contains("FAILED") && app.stdout().contains("LockNotAcquiredException"),
                    app.toString());
        }
    }

    @Test
    void anAttachFailingPartWayFailsTheWovenMethodsSaysSoAndRefusesTheNextAttach() throws Exception {
        Path config = config("partway.conf", RULE, "com.acme.legacy.Early#work key=\"early\"");
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(
                        "-Dlockwarden.agent.testFault=install-end:",
                        "-Dlegacy.redis.port=" + redis.node(0).port()),
                Map.of(),
                "late")) {
            app.awaitLine("READY paid warm", RUN);
            String pid = String.valueOf(app.pid());
            try (ChildJvm cli = ChildJvm.cli("attach", pid, config.toString())) {
                assertEquals(1, cli.waitFor(RUN), cli.toString());
                assertTrue(
                        cli.stderr()
                                .contains("start-up failed part-way, after the agent began instrumenting classes"
                                        + " (java.lang.IllegalStateException: injected fault at install-end for )"),
                        cli.toString());
                assertTrue(
                        cli.stderr()
                                .contains("not attached, and the agent failed part-way in process " + pid
                                        + ": methods it instrumented fail on every call; restart the process"),
                        cli.toString());
                assertFalse(cli.stderr().contains("nothing was changed"), "that would be false\n" + cli);
            }
            // a second attach is refused: the binding ids woven so far must never index another runtime's bindings
            try (ChildJvm cli = ChildJvm.cli("attach", pid, config.toString())) {
                assertEquals(1, cli.waitFor(RUN), cli.toString());
                assertTrue(
                        cli.stderr()
                                        .contains(
                                                "an earlier start of the agent failed part-way in this JVM"
                                                        + " (java.lang.IllegalStateException: injected fault at install-end for )")
                                && cli.stderr().contains("Restart the JVM to run with the agent"),
                        cli.toString());
                assertFalse(cli.stdout().contains("attached to process"), cli.toString());
            }
            app.send("go");
            assertEquals(0, app.waitFor(RUN), app.toString());
            String out = app.stdout();
            // retransformed before the failure: it fails on every call, never runs unlocked
            assertFalse(out.contains("BODY RAN p1"), "the woven method never runs unlocked\n" + app);
            assertTrue(
                    out.contains("FAILED java.lang.IllegalStateException: lockwarden-agent: " + CLASS + "#pay was"
                            + " instrumented by an agent start that failed part-way (java.lang.IllegalStateException:"
                            + " injected fault at install-end for ), so it fails instead of running without its lock;"
                            + " restart the JVM"),
                    app.toString());
            // loaded after the failure: the transformer is gone, so it is not woven (it runs as before the attach,
            // which reported that the agent is not active) — not woven against the failed runtime's bindings
            assertTrue(out.contains("Early.work early held=false") && out.contains("LATE RAN"), app.toString());
            String err = app.stderr();
            assertFalse(err.contains("instrumented com.acme.legacy.Early"), app.toString());
            assertTrue(err.contains("attach failed: start-up failed part-way"), app.toString());
            assertTrue(err.contains("attach failed: an earlier start of the agent failed part-way"), app.toString());
            assertFalse(err.contains("nothing was changed"), app.toString());
        }
    }

    @Test
    void anAttachFailingBeforeTheTransformerIsAddedChangesNothing() throws Exception {
        Path config = config("early.conf", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp", List.of("-Dlockwarden.agent.testFault=install:"), Map.of(), "attach")) {
            app.awaitLine("READY paid warm", RUN);
            String pid = String.valueOf(app.pid());
            try (ChildJvm cli = ChildJvm.cli("attach", pid, config.toString())) {
                assertEquals(1, cli.waitFor(RUN), cli.toString());
                assertTrue(
                        cli.stderr()
                                        .contains("start-up failed: java.lang.IllegalStateException: injected fault at"
                                                + " install for ")
                                && cli.stderr().contains("not attached: nothing was changed in process " + pid),
                        cli.toString());
            }
            app.send("go");
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("BODY RAN p1") && app.stdout().contains("RESULT paid p1"), app.toString());
            assertTrue(app.stderr().contains("attach failed, nothing was changed: start-up failed"), app.toString());
        }
    }

    @Test
    void aStartFailingPartWayBeforeMainStopsTheJvmEvenWithContinue() throws Exception {
        Path config = config("partway.conf", "onConfigError = continue", RULE);
        try (ChildJvm app = ChildJvm.startMain(
                "com.acme.legacy.GuardedApp",
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.testFault=install-end:"),
                Map.of(),
                "call")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("BODY RAN"), app.toString());
            assertFalse(app.stdout().contains("RESULT"), app.toString());
            assertTrue(
                    app.stderr()
                                    .contains("stopping the JVM before main (exit " + LockAgent.EXIT_CONFIG
                                            + "): start-up failed part-way")
                            && app.stderr().contains("onConfigError = continue does not apply"),
                    app.toString());
            assertFalse(app.stderr().contains("WITHOUT ANY AGENT LOCKS"), app.toString());
        }
    }
}
