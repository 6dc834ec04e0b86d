package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Any doubt at start-up stops the JVM before main; onConfigError = continue is the explicit opt-out; a method whose
 * class loader cannot see the bridge fails instead of running unlocked. Real child JVMs with the shaded agent.
 */
@Timeout(180)
class FailClosedIT extends RedisAgentTestBase {
    private static final String[] BROKEN = {
        "# mistakes on purpose",
        "redis = http://127.0.0.1:1",
        "tll = 30s",
        "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0\" ttl=30x onBusy=WAIT",
        "com.acme.legacy.Jobs#flag(String) key=\"job:{1}\"",
        "com.acme.legacy.Jobs#label key=\"job:{0}\" tll=3s",
        "com.acme.legacy.Jobs#charge key=\"job:{0}\" autoRefresh=maybe",
        "com.acme.legacy.Jobs#hold key=\"job:{0}\"",
        "com.acme.legacy.Jobs#hold key=\"job:{0}\""
    };

    @Test
    void brokenConfigStopsTheJvmBeforeMainListingEveryProblem() throws Exception {
        Path config = write("bad.conf", BROKEN);
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), "main never ran\n" + app);
            String err = app.stderr();
            String f = config.toString();
            for (String expected : List.of(
                    "stopping the JVM before main (exit 78): lock-agent config " + f + " has 10 problems:",
                    f + ":2: redis: Redis URI 'http://127.0.0.1:1' must start with redis://",
                    f + ":3: unknown setting 'tll' (did you mean 'ttl'?)",
                    f + ":4: lock name template \"job:{0\": '{' at position 4 is never closed",
                    f + ":4: ttl = '30x' is not a duration",
                    f + ":4: onBusy=WAIT is not FAIL or SKIP",
                    f + ":5: parameter type 'String' is not fully qualified — write e.g. java.lang.String",
                    f
                            + ":5: lock name template \"job:{1}\": '{1}' refers to parameter 1 but the method has 1 parameter(s)",
                    f + ":6: unknown option 'tll' (did you mean 'ttl'?)",
                    f + ":7: autoRefresh=maybe is not true or false",
                    f + ":9: duplicate rule for com.acme.legacy.Jobs#hold (first on line 8) — remove one of them",
                    "set onConfigError = continue")) {
                assertTrue(err.contains(expected), "stderr lacks: " + expected + "\n" + app);
            }
            assertEquals(1, count(err, "has 10 problems"), "one message lists them all\n" + app);
        }
    }

    @Test
    void onConfigErrorContinueRunsUninstrumentedWithAWarning() throws Exception {
        Path config = write("bad.conf", BROKEN);
        try (ChildJvm app = ChildJvm.start(
                List.of(ChildJvm.javaagent(config), "-Dlockwarden.agent.onConfigError=continue"), "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("PLAIN report=42 flag=true"), "runs un-instrumented\n" + app);
            assertTrue(
                    app.stderr()
                            .contains(
                                    "WARNING: lockwarden-agent: onConfigError = continue: the application runs WITHOUT ANY AGENT LOCKS."
                                            + " lock-agent config " + config + " has 10 problems:"),
                    app.toString());
        }
        Path inFile =
                write("bad2.conf", "onConfigError = continue", "com.acme.legacy.Jobs#report key=\"x\" onBusy=WAIT");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(inFile)), "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("PLAIN report=42"), app.toString());
            assertTrue(
                    app.stderr().contains("WITHOUT ANY AGENT LOCKS")
                            && app.stderr().contains(inFile + ":2: onBusy=WAIT"),
                    app.toString());
        }
    }

    @Test
    void problemsOnlyTheClassesShowStopTheJvmToo() throws Exception {
        Path config = write(
                "classes.conf",
                "com.acme.legacy.Jobs#report(int) key=\"job:{0}\"",
                "com.acme.legacy.Jobs#misnamed key=\"job:{nosuch}\"",
                "com.acme.legacy.Billing#settle key=\"pay:{0}\"",
                "com.acme.legacy.Jobs#flag key=\"job:{0}\"");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
            String err = app.stderr();
            String f = config.toString();
            for (String expected : List.of(
                    "has 3 problems:",
                    f
                            + ":1: com.acme.legacy.Jobs has no method report(int); its methods named report are report(java.lang.String) — fix the rule",
                    f + ":2: lock name template \"job:{nosuch}\": '{nosuch}' names no parameter; parameters are [key]",
                    f
                            + ":3: lock name template \"pay:{0}\": {0} is a com.acme.legacy.Payment, which does not override toString(),"
                            + " so every call would get a different lock name — use a property that identifies it, e.g. {0.id}")) {
                assertTrue(err.contains(expected), "stderr lacks: " + expected + "\n" + app);
            }
        }
    }

    @Test
    void unreadableConfigOrBridgeFailureStopTheJvm() throws Exception {
        Path missing = dir.resolve("missing.conf");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(missing)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(app.stderr().contains(missing + ": cannot read the file"), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
        }
        Path good = write("good.conf", "com.acme.legacy.Jobs#report key=\"job:{0}\"");
        // the marker makes the injector believe the bridge is already there: the check after injection must notice
        try (ChildJvm app =
                ChildJvm.start(List.of(ChildJvm.javaagent(good), "-Dlockwarden.agent.bridge=spoofed"), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(
                    app.stderr().contains("start-up failed") && app.stderr().contains("bootstrap bridge"),
                    app.toString());
        }
        // an internal failure is not a config error: onConfigError = continue does not let the rules go unenforced
        try (ChildJvm app = ChildJvm.start(
                List.of(
                        ChildJvm.javaagent(good),
                        "-Dlockwarden.agent.bridge=spoofed",
                        "-Dlockwarden.agent.onConfigError=continue"),
                "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(
                    app.stderr().contains("start-up failed") && app.stderr().contains("bootstrap bridge"),
                    app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
        }
    }

    @Test
    void aConfigBeyondTheRuleLimitStopsTheJvmEvenWithContinue() throws Exception {
        List<String> lines = new java.util.ArrayList<>(List.of("onConfigError = continue"));
        for (int i = 0; i <= 1000; i++) {
            lines.add("com.acme.legacy.Jobs" + i + "#report key=\"job:{0}\"");
        }
        Path many = write("many.conf", lines.toArray(String[]::new));
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(many)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(app.stderr().contains(many + ":1002: more than 1000 rules (the agent's limit)"), app.toString());
            assertFalse(app.stdout().contains("PLAIN"), app.toString());
        }
    }

    /** Java 17 and 25: the cheap way ({@code BootDefiner}) works; its fallback (Byte Buddy's Unsafe injector) locks too. */
    @Test
    void theBridgeIsDefinedDirectlyAndItsFallbackLocksToo() throws Exception {
        Path config = config("bridge.conf", "com.acme.legacy.Jobs#report key=\"job:{0}\" holdAtLeast=20s");
        for (String way : List.of("definer", "unsafe")) {
            redis.flushAll();
            List<String> args = new ArrayList<>(List.of(ChildJvm.javaagent(config)));
            if (way.equals("unsafe")) {
                args.add("-D" + BootstrapBridge.DEFINER_SWITCH + "=false");
            }
            try (ChildJvm app = ChildJvm.start(args, "plain")) {
                assertEquals(0, app.waitFor(RUN), app.toString());
                assertTrue(app.stdout().contains("PLAIN report=42 flag=true bridge=" + way), app.toString());
                assertEquals(
                        "1", redis.node(0).command("EXISTS", "lock:{job:k}"), way + ": report() took its lock\n" + app);
            }
        }
    }

    @Test
    void configFromTheEnvironmentAndTheStartUpReport() throws Exception {
        Path good = config(
                "env.conf",
                "reportUnmatchedAfter = 1s",
                "com.acme.legacy.Jobs#report key=\"job:{0}\"",
                "com.acme.legacy.NoSuchClass#run key=\"x\"");
        try (ChildJvm app = ChildJvm.start(
                List.of("-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
                Map.of("LOCKWARDEN_AGENT_CONFIG", good.toString()),
                "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            String err = app.stderr();
            assertTrue(err.contains("INFO: lockwarden-agent: 2 lock rule(s) from " + good + " active"), app.toString());
            assertTrue(
                    err.contains(
                            good + ":3: com.acme.legacy.Jobs#report → method report (any parameters) declared in class"
                                    + " com.acme.legacy.Jobs; key \"job:{0}\""),
                    app.toString());
            assertTrue(
                    err.contains("instrumented com.acme.legacy.Jobs#report(java.lang.String) (" + good
                            + ":3) in class loader app" + " (jdk.internal.loader.ClassLoaders$AppClassLoader)"),
                    app.toString());
            assertTrue(
                    err.contains(good + ":4: rule com.acme.legacy.NoSuchClass#run matched no method before shutdown"),
                    app.toString());
        }
    }

    @Test
    void aMethodWhoseLoaderCannotSeeTheBridgeFailsInsteadOfRunningUnlocked() throws Exception {
        Path config = config("plugin.conf", "com.acme.legacy.plugin.Plugin#pay(java.lang.String) key=\"plugin:{0}\"");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plugins")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            String out = app.stdout();
            assertTrue(out.contains("PLUGIN delegating-plugin-loader returned paid p1"), app.toString());
            assertTrue(out.contains("PLUGIN delegating-plugin-loader bodyRuns=1"), app.toString());
            assertTrue(
                    out.contains(
                            "PLUGIN isolating-plugin-loader threw java.lang.IllegalStateException: lockwarden-agent:"
                                    + " com.acme.legacy.plugin.Plugin#pay(java.lang.String) is lock-wrapped"),
                    app.toString());
            assertTrue(out.contains("-Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap"), app.toString());
            assertTrue(out.contains("PLUGIN isolating-plugin-loader bodyRuns=0"), "the body never ran\n" + app);
            assertEquals(
                    1,
                    count(
                            app.stderr(),
                            "SEVERE: lockwarden-agent: com.acme.legacy.plugin.Plugin#pay(java.lang.String) is lock-wrapped"),
                    "logged once\n" + app);
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
