package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockEvent;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.config.Settings;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;

/**
 * Switched on ({@code lockwarden.history.cycles}), cycles go to the lock's own capped, expiring
 * history, never to the global events stream; the lock detail reads only that history, so it finds a
 * cycle however busy the global stream is. Off (the default), a cycle writes no history, while a lost
 * lock is still recorded.
 */
class CycleHistoryTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final LockOptions TTL = LockOptions.ttl(Duration.ofSeconds(10));

    @BeforeEach
    void clean() {
        REDIS.flushAll();
    }

    private static RedisClient raw() {
        return RedisClient.builder()
                .hostAndPort("127.0.0.1", REDIS.node(0).port())
                .build();
    }

    @Test
    void aCycleGoesToTheLocksOwnExpiringHistoryNotTheGlobalStream() {
        try (RedisClient raw = raw();
                LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("billing")
                        .shutdownHook(false)
                        .historyCycles(true)
                        .historyRetention(Duration.ofHours(2))
                        .build()) {
            LockHandle h = app.acquire("hist:a", TTL);
            long fence = h.fencingToken();
            h.release();
            assertEquals(1, raw.xlen("lock:{hist:a}:history"));
            long ttl = raw.pttl("lock:{hist:a}:history");
            assertTrue(
                    ttl > TimeUnit.HOURS.toMillis(2) - 60_000 && ttl <= TimeUnit.HOURS.toMillis(2),
                    "the history expires with the configured retention: " + ttl);
            assertFalse(raw.exists("lockwarden:events"), "no per-cycle entry in the global stream");

            floodTheGlobalStream(raw, 5_000);
            List<LockEvent> events = app.inspector().events("hist:a");
            assertEquals(
                    List.of("release", "acquire"),
                    events.stream().map(LockEvent::type).toList());
            assertEquals(Long.toString(fence), events.get(0).fields().get("fence"));
            assertEquals("billing", events.get(1).fields().get("app"));
        }
    }

    @Test
    void theHistoryStaysCappedOnAHotLock() {
        try (RedisClient raw = raw();
                LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("billing")
                        .shutdownHook(false)
                        .settings(new Settings(Map.of(Settings.HISTORY_CYCLES, "on")::get, Map.of()))
                        .build()) {
            for (int i = 0; i < 1_000; i++) {
                app.acquire("hist:hot", TTL).release();
            }
            long len = raw.xlen("lock:{hist:hot}:history");
            assertTrue(len >= 100 && len < 300, "MAXLEN ~ 100 trims whole stream nodes: " + len);
            assertEquals(100, app.inspector().events("hist:hot").size());
        }
    }

    @Test
    void byDefaultACycleWritesNoHistoryButALostLockIsStillRecorded() throws Exception {
        try (RedisClient raw = raw();
                LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("billing")
                        .shutdownHook(false)
                        .settings(new Settings(Map.<String, String>of()::get, Map.of()))
                        .build()) {
            long xadds = calls(raw, "xadd");
            long hgetalls = calls(raw, "hgetall");
            app.acquire("hist:off", TTL).release();
            assertFalse(raw.exists("lock:{hist:off}:history"));
            assertEquals(xadds, calls(raw, "xadd"), "a release ran an XADD");
            assertEquals(hgetalls, calls(raw, "hgetall"), "a release read the holder info");
            assertTrue(app.inspector().events("hist:off").isEmpty());

            LockHandle h = app.acquire("hist:lost", LockOptions.ttl(Duration.ofMillis(900)));
            CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();
            h.onLost(lost::complete);
            raw.del("lock:{hist:lost}"); // behind the holder's back: its next refresh fails
            lost.get(10, TimeUnit.SECONDS);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            List<String> types = List.of();
            while (!types.contains("lost") && System.nanoTime() < until) {
                Thread.sleep(50);
                types = app.inspector().events("hist:lost").stream()
                        .map(LockEvent::type)
                        .toList();
            }
            assertEquals(List.of("lost", "acquire"), types, "the lost cycle, with the acquisition it ended");
            assertTrue(raw.pttl("lock:{hist:lost}:history") > 0, "the history a lost event creates expires too");
        }
    }

    @Test
    void badValuesNameTheSettingAndTheFix() {
        Settings bad = new Settings(Map.of(Settings.HISTORY_CYCLES, "sometimes")::get, Map.of());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder().redis(REDIS.uri()).settings(bad).build());
        assertTrue(
                e.getMessage().contains("system property lockwarden.history.cycles")
                        && e.getMessage().contains("true or false"),
                e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> LockManager.builder()
                        .redis(REDIS.uri())
                        .historyRetention(Duration.ofSeconds(5))
                        .build());
        assertTrue(e.getMessage().contains("lockwarden.history.retention"), e.getMessage());
    }

    /** Calls of {@code command} so far (INFO commandstats; scripts' inner commands included). */
    private static long calls(RedisClient raw, String command) {
        for (String line : raw.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"));
            }
        }
        return 0;
    }

    private static void floodTheGlobalStream(RedisClient raw, int n) {
        try (AbstractPipeline p = raw.pipelined()) {
            for (int i = 0; i < n; i++) {
                p.xadd(
                        "lockwarden:events",
                        XAddParams.xAddParams(),
                        Map.of("type", "release", "name", "busy:" + i, "fence", "1"));
            }
            p.sync();
        }
        assertEquals(n, raw.xlen("lockwarden:events"));
        assertTrue(
                raw.xrevrange("lockwarden:events", (StreamEntryID) null, (StreamEntryID) null, 2_000).stream()
                        .noneMatch(e -> "hist:a".equals(e.getFields().get("name"))),
                "the lock's cycle is not among the last 2,000");
    }
}
