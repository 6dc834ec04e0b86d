package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.ActivityCount;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Clients publish acquired / busy / lost counts per application in a few batched writes, not one per call. */
class ActivityTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int ACQUIRED_A = 20;
    private static final int ACQUIRED_B = 5;
    private static final int BUSY_B = 1_000;

    @Test
    void countsReachRedisInBatchesBoundedByFlushesNotByCalls() throws Exception {
        REDIS.flushAll();
        REDIS.node(0).command("CONFIG", "RESETSTAT");
        long start = System.nanoTime();
        try (LockManager a = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("act-a")
                        .build();
                LockManager b = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("act-b")
                        .build();
                LockManager reader = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("act-reader")
                        .build()) {
            LockHandle held = a.acquire("act:held", LockOptions.ttl(Duration.ofSeconds(1)));
            for (int i = 0; i < ACQUIRED_A; i++) {
                a.acquire("act:a" + i, LockOptions.ttl(Duration.ofSeconds(10))).release();
            }
            for (int i = 0; i < ACQUIRED_B; i++) {
                b.acquire("act:b" + i, LockOptions.ttl(Duration.ofSeconds(10))).release();
            }
            for (int i = 0; i < BUSY_B; i++) {
                assertTrue(b.tryAcquire("act:held", LockOptions.ttl(Duration.ofSeconds(10)))
                        .isEmpty());
            }
            // the periodic flush (every 5 s) publishes b's counts while b keeps running
            long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
            while (total(reader.inspector().activity(Duration.ofMinutes(5)), "act-b")
                                    .busy()
                            < BUSY_B
                    && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertEquals(
                    BUSY_B,
                    total(reader.inspector().activity(Duration.ofMinutes(5)), "act-b")
                            .busy(),
                    "published by the periodic flush");

            reader.inspector().forceRelease("act:held", "ops");
            for (int i = 0; i < 100 && held.isHeld(); i++) {
                Thread.sleep(50);
            }
            assertFalse(held.isHeld(), "the holder noticed the force-release");
            a.close(); // flushes the rest
            b.close();

            List<ActivityCount> activity = reader.inspector().activity(Duration.ofMinutes(5));
            ActivityCount ta = total(activity, "act-a");
            ActivityCount tb = total(activity, "act-b");
            assertEquals(ACQUIRED_A + 1, ta.acquired(), activity.toString());
            assertEquals(0, ta.busy(), activity.toString());
            assertEquals(1, ta.lost(), activity.toString());
            assertEquals(1, ta.forceReleased(), activity.toString());
            assertEquals(ACQUIRED_B, tb.acquired(), activity.toString());
            assertEquals(BUSY_B, tb.busy(), activity.toString());
            assertEquals(0, tb.lost() + tb.forceReleased(), activity.toString());
            assertTrue(
                    activity.stream().noneMatch(c -> c.application().equals("act-reader")),
                    "an idle client writes nothing");

            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
            long hincrby = calls("hincrby");
            // per JVM at most one batch per 5 s plus the one on close, each at most one HINCRBY per field
            long bound = 2L * (seconds / 5 + 2) * 3;
            assertTrue(
                    hincrby >= 3 && hincrby <= bound,
                    hincrby + " HINCRBY for " + (ACQUIRED_A + ACQUIRED_B + 1 + BUSY_B) + " counted calls in " + seconds
                            + " s; bound " + bound);
        }
    }

    @Test
    void activityKeysExpireWithinAboutAnHour() throws Exception {
        try (LockManager a =
                LockManager.builder().redis(REDIS.uri()).application("act-ttl").build()) {
            a.acquire("act:ttl", LockOptions.ttl(Duration.ofSeconds(10))).release();
        }
        String key = REDIS.node(0)
                .command("SCAN", "0", "MATCH", "lockwarden:activity:act-ttl:*", "COUNT", "10000")
                .lines()
                .filter(l -> l.startsWith("lockwarden:activity:act-ttl:"))
                .findFirst()
                .orElseThrow();
        long ttl = Long.parseLong(REDIS.node(0).command("TTL", key).strip());
        assertTrue(ttl > 3_500 && ttl <= 3_600, key + " TTL " + ttl);
    }

    @Test
    void aFailingFlushNeverFailsLockCallsAndWarnsOnce() throws Exception {
        long minute = java.util.concurrent.TimeUnit.MILLISECONDS.toMinutes(System.currentTimeMillis());
        for (long m = minute; m <= minute + 1; m++) { // not hashes: every HINCRBY fails with WRONGTYPE
            REDIS.node(0).command("SET", "lockwarden:activity:act-bad:" + m, "not-a-hash", "EX", "600");
        }
        java.util.List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("dev.lockwarden.internal.ActivityCounter");
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getLevel() == java.util.logging.Level.WARNING) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        log.addHandler(handler);
        try {
            try (LockManager a = LockManager.builder()
                    .redis(REDIS.uri())
                    .application("act-bad")
                    .build()) {
                long until = System.nanoTime() + Duration.ofSeconds(6).toNanos(); // past one periodic flush
                for (int i = 0; System.nanoTime() < until; i++) {
                    a.acquire("act:bad", LockOptions.ttl(Duration.ofSeconds(10)))
                            .release();
                    Thread.sleep(100);
                }
            } // the flush on close fails too, and close does not throw
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("locks are unaffected"), warnings.get(0));
            try (LockManager reader = LockManager.builder()
                    .redis(REDIS.uri())
                    .application("act-reader")
                    .build()) {
                List<ActivityCount> read = reader.inspector().activity(Duration.ofMinutes(5));
                assertTrue(
                        read.stream().noneMatch(c -> c.application().equals("act-bad")),
                        "a key that is not a hash is skipped: " + read);
            }
        } finally {
            log.removeHandler(handler);
        }
    }

    private static long calls(String command) {
        Matcher m = Pattern.compile("cmdstat_" + command + ":calls=(\\d+)")
                .matcher(REDIS.node(0).command("INFO", "commandstats"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static ActivityCount total(List<ActivityCount> counts, String app) {
        long[] t = new long[4];
        for (ActivityCount c : counts) {
            if (c.application().equals(app)) {
                t[0] += c.acquired();
                t[1] += c.busy();
                t[2] += c.lost();
                t[3] += c.forceReleased();
            }
        }
        return new ActivityCount(app, null, t[0], t[1], t[2], t[3]);
    }
}
