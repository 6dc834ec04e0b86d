package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code java -jar lock-agent.jar --help | check} as a deploy pipeline runs them (attach: see LockAgentIT). */
@Timeout(120)
class CliIT extends AgentTestBase {
    @Test
    void helpDocumentsBothCommands() throws Exception {
        try (ChildJvm cli = ChildJvm.cli("--help")) {
            assertEquals(0, cli.waitFor(RUN), cli.toString());
            String out = cli.stdout();
            assertTrue(
                    out.contains("Usage: java -jar lock-agent.jar")
                            && out.contains("attach")
                            && out.contains("check")
                            && out.contains("Attaches the agent to a running JVM")
                            && out.contains("Checks a config"),
                    cli.toString());
        }
        try (ChildJvm cli = ChildJvm.cli("attach", "--help")) {
            assertEquals(0, cli.waitFor(RUN), cli.toString());
            assertTrue(cli.stdout().contains("<pid>") && cli.stdout().contains("<config>"), cli.toString());
        }
        try (ChildJvm cli = ChildJvm.cli("check", "only-one-argument")) {
            assertEquals(2, cli.waitFor(RUN), "wrong usage\n" + cli);
            assertTrue(cli.stderr().contains("Missing required parameter: '<classpath>'"), cli.toString());
        }
    }

    @Test
    void checkListsWhatEachRuleWouldInstrument() throws Exception {
        Path config = write(
                "ok.conf",
                "com.acme.legacy.jobs.*Job#run* key=\"job:{class}:{method}\"",
                "com.acme.legacy.pay.PaymentHandler+#handle(..) key=\"pay:{class}:{0.id}\"",
                "com.acme.legacy.Early#work key=\"early\"");
        try (ChildJvm cli =
                ChildJvm.cli("check", config.toString(), ChildJvm.testClasses().toString())) {
            assertEquals(0, cli.waitFor(RUN), cli.toString());
            String out = cli.stdout();
            for (String expected : List.of(
                    config + ":1: com.acme.legacy.jobs.*Job#run* → 3 method(s)",
                    "    com.acme.legacy.jobs.NightlyJob#run()  key \"job:NightlyJob:run\"",
                    "    com.acme.legacy.jobs.NightlyJob#runOnce()  key \"job:NightlyJob:runOnce\"",
                    "    com.acme.legacy.jobs.WeeklyJob#run()  key \"job:WeeklyJob:run\"",
                    config + ":2: com.acme.legacy.pay.PaymentHandler+#handle → 2 method(s)",
                    "    com.acme.legacy.pay.AbstractHandler#handle(com.acme.legacy.pay.PaymentRequest)  key \"pay:AbstractHandler:{0.id}\"",
                    "    com.acme.legacy.pay.CardHandler#handle(com.acme.legacy.pay.PaymentRequest)",
                    config + ":3: com.acme.legacy.Early#work → 1 method(s)",
                    "OK")) {
                assertTrue(out.contains(expected), "stdout lacks: " + expected + "\n" + cli);
            }
            assertFalse(out.contains("JobHelper") || out.contains("cleanup"), cli.toString());
        }
    }

    @Test
    void checkFailsOnAnyProblem() throws Exception {
        Path config = write(
                "bad.conf",
                "com.acme.legacy.Jobs#report(int) key=\"job:{0}\"",
                "com.acme.legacy.Billing#settle key=\"pay:{0}\"",
                "com.acme.nothing.*Job#run key=\"x\"");
        try (ChildJvm cli =
                ChildJvm.cli("check", config.toString(), ChildJvm.testClasses().toString())) {
            assertEquals(1, cli.waitFor(RUN), cli.toString());
            String out = cli.stdout();
            for (String expected : List.of(
                    config + ":1: com.acme.legacy.Jobs has no method report(int)",
                    config
                            + ":2: lock name template \"pay:{0}\": {0} is a com.acme.legacy.Payment, which does not override toString()",
                    "e.g. {0.id}",
                    config + ":3: com.acme.nothing.*Job#run → matches NOTHING",
                    "FAILED: 2 problem(s), 2 rule(s) matching nothing")) {
                assertTrue(out.contains(expected), "stdout lacks: " + expected + "\n" + cli);
            }
        }
        Path broken = write("broken.conf", "com.acme.legacy.Jobs#report key=\"job:{0}\" onBusy=WAIT");
        try (ChildJvm cli =
                ChildJvm.cli("check", broken.toString(), ChildJvm.testClasses().toString())) {
            assertEquals(1, cli.waitFor(RUN), cli.toString());
            assertTrue(cli.stdout().contains(broken + ":1: onBusy=WAIT is not FAIL or SKIP"), cli.toString());
        }
    }
}
