package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Redis password (URI user info with '/', '@' and '+') never appears in what the agent prints: the start-up
 * report, its WARNINGs (Redis unreachable under onStoreDown=skip, unmatched rules at shutdown), the ERROR that stops
 * the JVM on a broken setting, and the {@code check} command's output. Real child JVMs with the shaded agent.
 */
class SecretsIT extends AgentTestBase {
    /** Every character that has broken URI parsing and masking before. */
    static final String PASSWORD = "S3cr/t@pa+ss";

    @Test
    void theStartUpReportAndItsWarningsNeverShowThePassword() throws Exception {
        int closed = closedPort();
        Path config = write(
                "down.conf",
                "redis = redis://app:" + PASSWORD + "@127.0.0.1:" + closed,
                "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\" onBusy=SKIP onStoreDown=skip",
                "com.acme.legacy.NoSuchClass#run key=\"x\"");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            String err = app.stderr();
            assertTrue(err.contains("2 lock rule(s) from " + config + " active"), app.toString());
            assertTrue(
                    err.contains("Redis unreachable, com.acme.legacy.Jobs#report skipped (onStoreDown=skip"),
                    app.toString());
            assertTrue(
                    err.contains("rule com.acme.legacy.NoSuchClass#run matched no method before shutdown"),
                    app.toString());
            assertNoPassword(app.toString());
        }
    }

    @Test
    void aBrokenRedisSettingStopsTheJvmWithoutShowingThePassword() throws Exception {
        Path config = write(
                "bad.conf",
                "redis = redis://app:" + PASSWORD + "@127.0.0.1:notaport",
                "redlock = redis://app:" + PASSWORD + "@h1:1,rediss://app:" + PASSWORD + "@h2:x",
                "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"");
        try (ChildJvm app = ChildJvm.start(List.of(ChildJvm.javaagent(config)), "plain")) {
            assertEquals(LockAgent.EXIT_CONFIG, app.waitFor(RUN), app.toString());
            assertTrue(app.stderr().contains(config + ":1: "), app.toString());
            assertNoPassword(app.toString());
        }
        try (ChildJvm cli =
                ChildJvm.cli("check", config.toString(), ChildJvm.testClasses().toString())) {
            assertEquals(1, cli.waitFor(RUN), cli.toString());
            assertTrue(cli.toString().contains(config + ":1: "), cli.toString());
            assertNoPassword(cli.toString());
        }
    }

    @Test
    void theCheckCommandNeverShowsThePassword() throws Exception {
        Path config = write(
                "ok.conf",
                "redis = redis://app:" + PASSWORD + "@127.0.0.1:6379",
                "com.acme.legacy.Jobs#report(java.lang.String) key=\"job:{0}\"");
        try (ChildJvm cli =
                ChildJvm.cli("check", config.toString(), ChildJvm.testClasses().toString())) {
            assertEquals(0, cli.waitFor(RUN), cli.toString());
            assertTrue(cli.stdout().contains("com.acme.legacy.Jobs#report(java.lang.String)"), cli.toString());
            assertNoPassword(cli.toString());
        }
    }

    /** Neither the password nor a recognisable part of it (its halves around '@', its URL-encoded form). */
    static void assertNoPassword(String output) {
        for (String part : new String[] {PASSWORD, "S3cr/t", "pa+ss", "S3cr%2Ft"}) {
            assertFalse(output.contains(part), "'" + part + "' in:\n" + output);
        }
    }
}
