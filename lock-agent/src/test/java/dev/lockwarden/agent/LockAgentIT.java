package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shaded agent in real separate JVMs against a real redis-server. The legacy app has no
 * Lockwarden code and its own unshaded Jedis next to the agent's relocated one.
 */
@org.junit.jupiter.api.Timeout(240)
class LockAgentIT extends RedisAgentTestBase {
    private static final Duration RUN = Duration.ofSeconds(90);
    private static final int THREADS = 4;
    private static final int ITERATIONS = 25;

    @Test
    void lockedCounterIsExactAcrossTwoJvms() throws Exception {
        Path config = write(
                "counter.conf",
                "com.acme.legacy.Counter#increment(java.lang.String) key=\"counter:{0}\" ttl=10s wait=30s");
        runCounters(List.of(ChildJvm.javaagent(config)), "ctr");
        assertEquals(String.valueOf(2 * THREADS * ITERATIONS), get("ctr"), "every increment counted");
        assertEquals("1", get("ctr:max"), "never two increments at once");
    }

    @Test
    void withoutTheAgentUpdatesAreLost() throws Exception {
        runCounters(List.of(), "ctr");
        assertTrue(
                Long.parseLong(get("ctr")) < 2 * THREADS * ITERATIONS, "the control must lose updates: " + get("ctr"));
        assertTrue(Long.parseLong(get("ctr:max")) > 1, "the control must overlap");
    }

    @Test
    void skipAndFailPoliciesAndHolderInfo() throws Exception {
        Path config = write("policies.conf", policies());
        try (LockManager locks = LockManager.builder()
                        .redis(redis.uri())
                        .application("agent-it")
                        .build();
                ChildJvm app = ChildJvm.start(
                        List.of(ChildJvm.javaagent(config), "-Dlockwarden.redis=" + redis.uri()), "policies")) {
            app.awaitLine("HOLDING k1", RUN);
            Optional<LockInfo> held = locks.inspector().get("job:k1");
            assertTrue(held.isPresent(), "job:k1 is held while hold() runs\n" + app);
            assertEquals(LockSource.AGENT, held.get().source());
            assertEquals("com.acme.legacy.Jobs#hold", held.get().method());
            assertEquals("legacy-billing", held.get().holder().application(), "application from the config file");
            assertEquals(app.pid(), held.get().holder().pid());
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertPolicies(app);
            assertFalse(locks.inspector().get("job:k1").isPresent(), "released after hold() returned");
        }
    }

    @Test
    void attachCommandRetransformsLoadedClassesAfterFailedAttaches() throws Exception {
        Path config = write("policies.conf", policies());
        Path broken = write("broken.conf", "com.acme.legacy.Jobs#report key=\"job:{0}\" onBusy=WAIT");
        Path missing = write("missing.conf", "com.acme.legacy.Jobs#report(int) key=\"job:{0}\"");
        try (ChildJvm app = ChildJvm.start(List.of("-Dlockwarden.redis=" + redis.uri()), "attach")) {
            app.awaitLine("READY report=42", RUN);
            String pid = String.valueOf(app.pid());
            try (ChildJvm cli = ChildJvm.cli("attach", pid, broken.toString())) {
                assertEquals(1, cli.waitFor(RUN), cli.toString());
                assertTrue(
                        cli.stderr().contains(broken + ":1: onBusy=WAIT is not FAIL or SKIP")
                                && cli.stderr().contains("not attached: nothing was changed in process " + pid),
                        cli.toString());
            }
            try (ChildJvm cli = ChildJvm.cli("attach", pid, missing.toString())) {
                assertEquals(
                        1,
                        cli.waitFor(RUN),
                        "a problem only the target can see is reported to the attaching side\n" + cli);
                assertTrue(
                        cli.stderr().contains(missing + ":1: com.acme.legacy.Jobs has no method report(int)"),
                        cli.toString());
            }
            try (ChildJvm cli = ChildJvm.cli("attach", pid, config.toString())) {
                assertEquals(0, cli.waitFor(RUN), cli.toString());
                assertTrue(
                        cli.stdout().contains("attached to process " + pid)
                                && cli.stdout()
                                        .contains("instrumented " + config
                                                + ":4: com.acme.legacy.Jobs#report(java.lang.String)"),
                        "lists the retransformed methods\n" + cli);
            }
            try (ChildJvm cli = ChildJvm.cli("attach", pid, config.toString())) {
                assertEquals(1, cli.waitFor(RUN), cli.toString());
                assertTrue(cli.stderr().contains("the agent is already active in this JVM"), cli.toString());
            }
            app.send("go");
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(
                    app.stderr()
                            .contains("attach failed, nothing was changed: lock-agent config " + missing
                                    + " has 1 problem:"),
                    app.toString());
            assertTrue(app.stderr().contains("8 lock rule(s) from " + config + " active (attached)"), app.toString());
            assertPolicies(app);
        }
    }

    private static String policies() {
        return String.join(
                "\n",
                "# every policy of the agent, on com.acme.legacy.Jobs",
                "application = legacy-billing",
                "com.acme.legacy.Jobs#hold key=\"job:{0}\" ttl=10s onBusy=FAIL",
                "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\" onBusy=SKIP",
                "com.acme.legacy.Jobs#flag key=\"job:{key}\" onBusy=SKIP",
                "com.acme.legacy.Jobs#label(java.lang.String) key=\"job:{0}\" onBusy=SKIP",
                "com.acme.legacy.Jobs#named key=\"job:{jobKey}\" onBusy=SKIP",
                "com.acme.legacy.Jobs#charge(java.lang.String) key=\"job:{0}\" wait=200ms onBusy=FAIL",
                "com.acme.legacy.Jobs#fails key=\"fail:{0}\" onBusy=FAIL",
                "reportUnmatchedAfter = 1s",
                "com.acme.legacy.NoSuchClass#run key=\"x\"");
    }

    private static void assertPolicies(ChildJvm app) {
        String out = app.stdout();
        assertTrue(out.contains("HOST-BYTEBUDDY com.acme.legacy.Generated"), "the host's own Byte Buddy works\n" + app);
        assertTrue(
                out.contains("SKIPPED report=0 flag=false label=null named=null bodyRuns=0"),
                "SKIP returns defaults\n" + app);
        assertTrue(out.contains("FREE-KEY report=42"), "another key is free\n" + app);
        assertTrue(
                out.contains(
                        "CHARGE threw dev.lockwarden.agent.shaded.dev.lockwarden.LockNotAcquiredException: lock 'job:k1'"),
                "FAIL throws into the caller\n" + app);
        assertTrue(out.contains("MISNAMED ran"), "an unconfigured method runs as before\n" + app);
        assertTrue(out.contains("FAILS threw body failed for k3"), "the body's exception reaches the caller\n" + app);
        assertTrue(out.contains("AFTER report=42 fails-again=body"), "locks released, also after an exception\n" + app);
        assertTrue(out.contains("DONE"), app.toString());
        assertTrue(
                app.stderr().contains("rule com.acme.legacy.NoSuchClass#run matched no method within 1 s of start"),
                app.toString());
    }

    private void runCounters(List<String> agent, String name) throws Exception {
        List<String> args = new ArrayList<>(agent);
        args.add("-Dlockwarden.redis=" + redis.uri());
        String port = String.valueOf(redis.node(0).port());
        try (ChildJvm a = ChildJvm.start(args, "counter", "127.0.0.1", port, "" + THREADS, "" + ITERATIONS, name);
                ChildJvm b = ChildJvm.start(args, "counter", "127.0.0.1", port, "" + THREADS, "" + ITERATIONS, name)) {
            for (ChildJvm app : List.of(a, b)) {
                assertEquals(0, app.waitFor(RUN), app.toString());
                assertTrue(app.stdout().contains("ERRORS 0"), app.toString());
                if (!agent.isEmpty()) {
                    assertTrue(app.stderr().contains("1 lock rule(s) from"), app.toString());
                }
            }
        }
    }

    private String get(String key) {
        return redis.node(0).command("GET", key);
    }
}
