package dev.lockwarden.inspect;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;

/**
 * The force-release event goes to the events stream with its cap ({@code MAXLEN ~ eventsMaxLen}),
 * like every other event: a dashboard releasing locks cannot grow the stream without bound.
 */
class ForceReleaseEventCapTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void forceReleaseTrimsTheEventsStream() {
        REDIS.flushAll();
        try (RedisClient raw = RedisClient.builder()
                        .hostAndPort("127.0.0.1", REDIS.node(0).port())
                        .build();
                LockManager app = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("app")
                        .build();
                LockManager dashboard = LockManager.builder()
                        .redis(REDIS.uri())
                        .application("dashboard")
                        .eventsMaxLen(10)
                        .build()) {
            for (int i = 0; i < 250; i++) { // older events, e.g. of clients configured with a larger cap
                raw.xadd("lockwarden:events", XAddParams.xAddParams(), Map.of("type", "old", "name", "x" + i));
            }
            LockHandle held = app.acquire("cap:a", LockOptions.ttl(Duration.ofSeconds(30)));
            long before = raw.xlen("lockwarden:events");
            assertTrue(before >= 250, "prefilled: " + before);

            assertTrue(dashboard.inspector().forceRelease("cap:a", "alice").released());

            long after = raw.xlen("lockwarden:events");
            assertTrue(after < 250, "the force-release XADD trims to about 10 entries (whole stream nodes): " + after);
            assertTrue(raw.xrange("lockwarden:events", (StreamEntryID) null, (StreamEntryID) null).stream()
                    .anyMatch(e -> "force-release".equals(e.getFields().get("type"))
                            && "cap:a".equals(e.getFields().get("name"))));
            held.release(); // no longer ours: a late release, harmless
        }
    }
}
