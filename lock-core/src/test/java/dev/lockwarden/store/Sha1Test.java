package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.testing.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link Sha1#hex} is what a Lua script's {@code redis.sha1hex} computes (force-release compares the two). */
class Sha1Test {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    @Test
    void matchesRedisSha1hexForAsciiUtf8AndEmptyText() {
        for (String text : List.of("a-token", "0123456789abcdef0123456789abcdef", "Grüße €", "")) {
            assertEquals(
                    REDIS.node(0).command("EVAL", "return redis.sha1hex(ARGV[1])", "0", text), Sha1.hex(text), text);
        }
    }
}
