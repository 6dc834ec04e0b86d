package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/acl.md's user with its Redis Cluster variation, on every node of a real cluster: locks, waits and
 * releases work, and the failover watch reads {@code CLUSTER INFO} without a warning. The control: the same
 * user without {@code +cluster|info} still locks, and each manager's watch warns once that a failover would be noticed
 * only at the next refresh.
 */
class ClusterAclTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.cluster(3);

    private static final String PASSWORD = "cluster-acl-pw";
    private static final Logger WATCH_LOG = Logger.getLogger("dev.lockwarden.store.ClusterWatch");

    @BeforeAll
    static void createTheDocumentedUsers() throws Exception {
        List<String> doc = Files.readAllLines(Path.of("..", "docs", "acl.md"));
        String text = String.join("\n", doc);
        List<String> base = new ArrayList<>(Arrays.asList(doc.stream()
                .filter(l -> l.startsWith("ACL SETUSER lockwarden "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("docs/acl.md has no ACL SETUSER line"))
                .split(" ")));
        base.replaceAll(a -> a.equals(">CHANGE-ME") ? ">" + PASSWORD : a);
        if (!readOnlyKeyPatterns()) { // the documented Redis 6.2 variant
            base.replaceAll(a -> a.equals("%R~lockwarden:audit") ? "~lockwarden:audit" : a);
        }
        Matcher m = Pattern.compile("\\*\\*Redis Cluster\\*\\*: add `([^`]+)`").matcher(text);
        assertTrue(m.find(), "docs/acl.md has no Redis Cluster variation");
        List<String> cluster = Arrays.asList(m.group(1).split(" "));
        assertTrue(cluster.contains("+cluster|info"), cluster.toString());
        List<String> documented = new ArrayList<>(base);
        documented.addAll(cluster);
        List<String> withoutInfo = new ArrayList<>(base);
        withoutInfo.addAll(
                cluster.stream().filter(c -> !c.equals("+cluster|info")).toList());
        withoutInfo.set(2, "lockwarden-noinfo");
        for (RedisNode node : REDIS.nodes()) {
            node.command(documented.toArray(String[]::new));
            node.command(withoutInfo.toArray(String[]::new));
        }
    }

    private static boolean readOnlyKeyPatterns() {
        String info = REDIS.node(0).command("INFO", "server");
        return Integer.parseInt(info.replaceAll("(?s).*redis_version:(\\d+)\\..*", "$1")) >= 7;
    }

    private static String[] seeds(String user) {
        return REDIS.nodes().stream()
                .map(n -> "redis://" + user + ":" + PASSWORD + "@127.0.0.1:" + n.port())
                .toArray(String[]::new);
    }

    /** Locks, waits for and releases as {@code user}; returns the watch's warnings meanwhile. */
    private static List<String> lockAs(String user) throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        WATCH_LOG.addHandler(handler);
        try (LockManager a = LockManager.builder()
                        .cluster(seeds(user))
                        .application("acl-a")
                        .shutdownHook(false)
                        .build();
                LockManager b = LockManager.builder()
                        .cluster(seeds(user))
                        .application("acl-b")
                        .shutdownHook(false)
                        .build()) {
            LockHandle held = a.acquire("acl:" + user, LockOptions.ttl(Duration.ofSeconds(30)));
            assertTrue(held.isHeld());
            // the watch polls every 250 ms once a lock is held; wait for a few polls, then a waiter's wake-up
            Thread.sleep(1_000);
            Thread release = new Thread(() -> {
                sleep(200);
                held.release();
            });
            release.start();
            try (LockHandle next = b.acquire(
                    "acl:" + user,
                    LockOptions.ttl(Duration.ofSeconds(30))
                            .waitUpTo(Duration.ofSeconds(10))
                            .retryInterval(Duration.ofSeconds(30)))) {
                assertTrue(next.fencingToken() > held.fencingToken());
            }
            release.join();
            return warnings;
        } finally {
            WATCH_LOG.removeHandler(handler);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theDocumentedClusterAclLocksAndLetsTheWatchReadTheEpoch() throws Exception {
        assertEquals(List.of(), lockAs("lockwarden"));
    }

    @Test
    void withoutClusterInfoTheWatchWarnsOnceNamingThePermission() throws Exception {
        List<String> warnings = lockAs("lockwarden-noinfo");
        // one per manager whose watch ran (at most two here), not one per poll (four a second)
        assertTrue(!warnings.isEmpty() && warnings.size() <= 2, warnings.toString());
        warnings.forEach(w -> assertTrue(w.contains("+cluster|info"), w));
    }
}
