package dev.lockwarden.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.LockSource;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The pre-encoded hot-path arguments are byte for byte what the String forms encode to. */
class EncodedArgumentsTest {
    @Test
    void packedHolderBytesEqualTheEncodedString() {
        LockHolder[] holders = {
            new LockHolder("jvm-1", "main", LockSource.API, "", 1_764_600_000_123L),
            new LockHolder("jvm-1", "main", LockSource.API, "", 0),
            new LockHolder("jvm-1", "main", LockSource.API, "", 9),
            new LockHolder("jvm-1", "main", LockSource.API, "", 10),
            new LockHolder("jvm-1", "main", LockSource.API, "", Long.MAX_VALUE),
            new LockHolder("jvm-1", "main", LockSource.API, "", -42),
            new LockHolder("jvm-2", "wörker \u001f ü", LockSource.CDI, "com.Example#run(int)", 123_456),
            new LockHolder(null, null, null, null, 77),
        };
        for (LockHolder h : holders) { // twice each: the per-thread parts are reused the second time
            assertArrayEquals(h.encode().getBytes(StandardCharsets.UTF_8), h.encodeUtf8(), h.toString());
            assertArrayEquals(h.encode().getBytes(StandardCharsets.UTF_8), h.encodeUtf8(), h.toString());
        }
    }

    @Test
    void encodedValuesKeepTheirBytes() {
        byte[] base = "lw:{a b}".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                "lw:{a b}:fence", Encoded.suffixed(base, KeySpace.FENCE_SUFFIX).toString());
        assertEquals("lw:{a b}", Encoded.wrap(base).toString());
        for (long n : new long[] {0, 1, 15, 16, 30_000, -1}) {
            assertEquals(Long.toString(n), Encoded.of(n).toString());
        }
        assertEquals(Encoded.of("x"), Encoded.of("x"));
    }
}
