package dev.lockwarden.examples;

import dev.lockwarden.config.Settings;
import dev.lockwarden.testing.RedisNode;
import java.util.Optional;

/**
 * The Redis the demo talks to: the one named by {@code lockwarden.redis} / {@code LOCKWARDEN_REDIS}
 * if set, else a private redis-server it starts on a free loopback port (the Debian one if
 * installed, otherwise the binary shipped inside embedded-redis) and stops at the end.
 */
public final class DemoRedis implements AutoCloseable {
    private final RedisNode started;
    private final String uri;

    private DemoRedis(RedisNode started, String uri) {
        this.started = started;
        this.uri = uri;
    }

    /** The configured Redis, else a private one started now. */
    public static DemoRedis start() {
        Optional<Settings.Source> configured = Settings.fromSystem().raw(Settings.REDIS);
        if (configured.isPresent()) {
            return new DemoRedis(null, configured.get().value());
        }
        RedisNode node = new RedisNode().start();
        return new DemoRedis(node, node.uri());
    }

    /** {@code redis://...} without credentials when started here. */
    public String uri() {
        return uri;
    }

    /** For the console: which Redis, and where it came from. */
    public String describe() {
        return started == null
                ? uri + " (configured)"
                : uri + " (started for this demo: " + started.binary().path() + ")";
    }

    @Override
    public void close() {
        if (started != null) {
            started.close();
        }
    }
}
