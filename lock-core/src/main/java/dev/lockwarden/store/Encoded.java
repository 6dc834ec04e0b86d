package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import redis.clients.jedis.args.Rawable;

/**
 * A script key or argument already encoded as UTF-8. Jedis copies every {@code String} or
 * {@code byte[]} argument into a fresh {@code Rawable} per call (encode, then copy); a
 * {@code Rawable} it takes as is. So constants (script SHA-1, key counts, TTLs) are encoded once,
 * and per-call values are encoded once, without Jedis' second copy. The bytes must not be changed
 * after construction.
 */
final class Encoded implements Rawable {
    private static final Encoded[] SMALL = new Encoded[16];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = of(Integer.toString(i));
        }
    }

    private final byte[] raw;

    private Encoded(byte[] raw) {
        this.raw = raw;
    }

    static Encoded of(String s) {
        return new Encoded(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Takes {@code raw} without a copy: the caller hands it over. */
    static Encoded wrap(byte[] raw) {
        return new Encoded(raw);
    }

    static Encoded of(long n) {
        return n >= 0 && n < SMALL.length ? SMALL[(int) n] : of(Long.toString(n));
    }

    /** {@code base} followed by {@code suffix} (ASCII), in one array. */
    static Encoded suffixed(byte[] base, String suffix) {
        byte[] b = Arrays.copyOf(base, base.length + suffix.length());
        for (int i = 0; i < suffix.length(); i++) {
            b[base.length + i] = (byte) suffix.charAt(i);
        }
        return new Encoded(b);
    }

    @Override
    public byte[] getRaw() {
        return raw;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Encoded e && Arrays.equals(raw, e.raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }

    @Override
    public String toString() {
        return new String(raw, StandardCharsets.UTF_8);
    }
}
