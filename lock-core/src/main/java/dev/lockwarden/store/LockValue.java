package dev.lockwarden.store;

import java.util.Map;

/**
 * The value of a lock key, as acquire.lua writes it: {@code token US fence US packed holder}
 * (US = U+001F; the packed holder is {@link LockHolder#encode()}). Holder and fence live in the lock's
 * own value, so an acquire writes one key besides the fence counter and a release deletes one key.
 * A value without a separator was written by an older caller (the token alone; the holder and the
 * fence in the {@code :info} hash): {@link #packed()} is then null and the reader falls back to that
 * hash.
 *
 * @param token  the owner's random token
 * @param fence  the fence as written, "" for the older layout
 * @param packed the packed holder, null for the older layout
 */
public record LockValue(String token, String fence, String packed) {
    private static final char SEP = '\u001f';

    /** Parses a lock key's value (null = no lock). */
    public static LockValue parse(String value) {
        if (value == null) {
            return null;
        }
        int first = value.indexOf(SEP);
        if (first < 0) {
            return new LockValue(value, "", null);
        }
        int second = value.indexOf(SEP, first + 1);
        if (second < 0) {
            return new LockValue(value.substring(0, first), value.substring(first + 1), "");
        }
        return new LockValue(
                value.substring(0, first), value.substring(first + 1, second), value.substring(second + 1));
    }

    /** True for the older layout, whose holder is in the {@code :info} hash. */
    public boolean olderLayout() {
        return packed == null;
    }

    /** The holder fields in the shape of an info hash ({@value LockHolder#FENCE}, {@value LockHolder#PACKED}). */
    public Map<String, String> asInfo() {
        return Map.of(LockHolder.FENCE, fence, LockHolder.PACKED, packed);
    }
}
