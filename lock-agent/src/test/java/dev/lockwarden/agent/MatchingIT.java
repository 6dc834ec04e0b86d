package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.agent.testagent.TestAgent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Wildcards, subtype matching, {class}/{method} keys, retransformation of a class loaded before the agent,
 * byte-identical untouched classes and onLost, in one child JVM (each method body checks in Redis, with the app's
 * own Jedis, whether its lock is held while it runs).
 */
@Timeout(120)
class MatchingIT extends RedisAgentTestBase {
    @Test
    void patternsKeysRetransformationUntouchedBytesAndOnLost() throws Exception {
        Path config = config(
                "matching.conf",
                "com.acme.legacy.jobs.*Job#run* key=\"job:{class}:{method}\"",
                "com.acme.legacy.pay.PaymentHandler+#handle(..) key=\"pay:{class}:{0.id}\"",
                "com.acme.legacy.Early#work key=\"early\"",
                "com.acme.legacy.Slow#logged key=\"slow:{0}\" ttl=300ms autoRefresh=false",
                "com.acme.legacy.Slow#thrown key=\"slow:{0}\" ttl=300ms autoRefresh=false onLost=throw",
                "com.acme.legacy.Cron#tick key=\"cron:{method}\" ttl=30s holdAtLeast=20s");
        Path testAgent = testAgentJar();
        Path captured = Files.createDirectories(dir.resolve("captured"));
        try (ChildJvm app = ChildJvm.start(
                List.of(
                        "-javaagent:" + testAgent + "=load=com.acme.legacy.Early",
                        ChildJvm.javaagent(config),
                        "-javaagent:" + testAgent + "=capture=" + captured,
                        "-Dlegacy.redis.port=" + redis.node(0).port()),
                "matching")) {
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(
                    redis.node(0).command("PTTL", "lock:{cron:tick}").matches("\\d+"),
                    "holdAtLeast keeps the lock after exit");
            String out = app.stdout();
            for (String expected : List.of(
                    "Early.work early held=true",
                    "NightlyJob.run job:NightlyJob:run held=true",
                    "NightlyJob.runOnce job:NightlyJob:runOnce held=true",
                    "NightlyJob.cleanup job:NightlyJob:cleanup held=false",
                    "WeeklyJob.run job:WeeklyJob:run held=true",
                    "JobHelper helper",
                    "CardHandler.handle pay:CardHandler:P1 held=true",
                    "WireHandler.handle pay:AbstractHandler:P2 held=true",
                    "CRON tick ran",
                    "CRON after return cron:tick held=true",
                    "SLOW logged-done",
                    "SLOW thrown threw LockLostException")) {
                assertTrue(out.contains(expected), "stdout lacks: " + expected + "\n" + app);
            }
            String err = app.stderr();
            assertTrue(
                    err.matches(
                            "(?s).*WARNING: lockwarden-agent: lock 'slow:s1' \\(fence \\d+\\) was lost while"
                                    + " com.acme.legacy.Slow#logged ran; the work may have overlapped another holder \\(onLost=log, .*matching.conf:5\\).*"),
                    "onLost=log warns with name, fence and method\n" + app);
            assertFalse(err.contains("lock 'slow:s2'") && err.contains("onLost=log, " + config + ":6"), app.toString());
            assertTrue(err.contains("instrumented com.acme.legacy.Early#work() (" + config + ":4)"), app.toString());
            assertFalse(
                    err.contains("JobHelper") || err.contains("PaymentHandler#handle(com"),
                    "interfaces and helpers untouched\n" + app);
        }
        for (String untouched : List.of(
                "com.acme.legacy.jobs.JobHelper",
                "com.acme.legacy.LegacyApp",
                "com.acme.legacy.pay.PaymentRequest",
                "com.acme.legacy.pay.WireHandler")) {
            assertArrayEquals(
                    classFile(untouched),
                    Files.readAllBytes(captured.resolve(untouched + ".class")),
                    untouched + " must keep its exact bytes");
        }
        assertFalse(
                Arrays.equals(
                        classFile("com.acme.legacy.jobs.NightlyJob"),
                        Files.readAllBytes(captured.resolve("com.acme.legacy.jobs.NightlyJob.class"))),
                "the capture sees the agent's work");
    }

    private static byte[] classFile(String name) throws IOException {
        try (var in = MatchingIT.class.getClassLoader().getResourceAsStream(name.replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Packs {@link TestAgent} into its own agent jar. */
    private Path testAgentJar() throws IOException {
        Path jar = dir.resolve("test-agent.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", TestAgent.class.getName());
        manifest.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        String entry = TestAgent.class.getName().replace('.', '/');
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (String name : List.of(entry + ".class", entry + "$1.class")) {
                out.putNextEntry(new JarEntry(name));
                out.write(classFile(name.replace('/', '.').replace(".class", "")));
                out.closeEntry();
            }
        }
        return jar;
    }
}
