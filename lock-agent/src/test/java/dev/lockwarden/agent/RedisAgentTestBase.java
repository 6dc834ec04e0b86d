package dev.lockwarden.agent;

import dev.lockwarden.testing.RedisServerExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link AgentTestBase} with one real redis-server per test class, flushed before each test. */
abstract class RedisAgentTestBase extends AgentTestBase {
    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @BeforeEach
    void flushRedis() {
        redis.flushAll();
    }

    /** A config file whose first line is {@code redis = <this class's server>}, then {@code lines}. */
    Path config(String name, String... lines) throws IOException {
        List<String> all = new ArrayList<>(List.of("redis = " + redis.uri()));
        all.addAll(List.of(lines));
        return write(name, all.toArray(String[]::new));
    }
}
