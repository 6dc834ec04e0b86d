package dev.lockwarden.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * Being told of a force-release at once costs nothing per acquire/release cycle: the manager subscribes to
 * the one force-released channel once (from its first lock on), so a cycle is still one script to acquire and
 * one to release, with no SUBSCRIBE, UNSUBSCRIBE or PUBLISH (counted with INFO commandstats, where a script's
 * inner calls count too). The control: the manager does listen on the channel while it cycles.
 */
class ForceReleaseSignalCostTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions HOLD = LockOptions.ttl(Duration.ofSeconds(30));
    private static final int CYCLES = 50;

    @Test
    void aCycleSendsNoPubSubCommandAndNoCommandMoreThanItsTwoScripts() throws Exception {
        try (LockManager a = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("cost")
                        .shutdownHook(false)
                        .build();
                RedisClient raw = RedisClient.create(REDIS.uri())) {
            LockHandle first = a.acquire("cost:first", HOLD); // the manager listens from its first lock on
            awaitListeners();
            Map<String, Long> before = calls(raw);
            for (int i = 0; i < CYCLES; i++) {
                try (LockHandle h = a.acquire("cost:" + i, HOLD)) {
                    assertTrue(h.fencingToken() > 0);
                }
            }
            Map<String, Long> after = calls(raw);
            Map<String, Long> delta = new TreeMap<>();
            after.forEach((c, n) -> {
                long d = n - before.getOrDefault(c, 0L);
                if (d != 0 && !c.equals("info")) {
                    delta.put(c, d);
                }
            });
            System.out.println(
                    "commands for " + CYCLES + " acquire/release cycles (scripts' inner calls included): " + delta);
            for (String c : new String[] {"subscribe", "unsubscribe", "psubscribe", "punsubscribe", "publish"}) {
                assertEquals(0L, delta.getOrDefault(c, 0L), c + " calls during " + CYCLES + " cycles");
            }
            assertEquals(2L * CYCLES, delta.getOrDefault("evalsha", 0L), "scripts sent for " + CYCLES + " cycles");
            assertEquals(1, subscribers(), "the manager stopped listening on the force-released channel");
            first.release();
        }
    }

    /** Waits (at most 10 s) until one connection subscribed the force-released channel. */
    private static void awaitListeners() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (subscribers() < 1) {
            assertTrue(System.nanoTime() < until, "nobody subscribed lock:force-released");
            Thread.sleep(10);
        }
    }

    private static long subscribers() {
        String[] reply =
                REDIS.node(0).command("PUBSUB", "NUMSUB", "lock:force-released").split("\n");
        return Long.parseLong(reply[reply.length - 1].strip());
    }

    /** Calls of every command so far (INFO commandstats; scripts' inner commands included). */
    private static Map<String, Long> calls(RedisClient raw) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : raw.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                calls.put(
                        line.substring("cmdstat_".length(), line.indexOf(':')),
                        Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1")));
            }
        }
        return calls;
    }
}
