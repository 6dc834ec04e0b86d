package dev.lockwarden.store;

/**
 * The message force-release.lua publishes on {@link KeySpace#forceReleasedChannel()} when it removed a
 * holder: lock name, SHA-1 of the removed token, the fence counter after the bump and the operator,
 * separated by the unit separator (US, 0x1f). Names never contain control characters
 * ({@link LockNames}); the operator comes last, so it may.
 *
 * @param name      the lock's name
 * @param tokenSha1 SHA-1 (hex) of the removed holder's token: names the acquisition, not just the lock
 * @param newFence  the fence counter after the bump, as the node reported it
 * @param operator  who force-released it ("" if not given)
 */
public record ForceReleased(String name, String tokenSha1, String newFence, String operator) {
    private static final char US = '\u001f';

    /** The message, or null if {@code payload} is not one (another client's format: ignored, never guessed). */
    public static ForceReleased parse(String payload) {
        int a = payload.indexOf(US);
        int b = a < 0 ? -1 : payload.indexOf(US, a + 1);
        int c = b < 0 ? -1 : payload.indexOf(US, b + 1);
        if (c < 0 || a == 0) {
            return null;
        }
        return new ForceReleased(
                payload.substring(0, a),
                payload.substring(a + 1, b),
                payload.substring(b + 1, c),
                payload.substring(c + 1));
    }

    /** The message as force-release.lua publishes it. */
    String encode() {
        return name + US + tokenSha1 + US + newFence + US + operator;
    }

    /** True if this message is about the acquisition holding {@code lease} (its name and its very token). */
    public boolean ends(Lease lease) {
        return name.equals(lease.name()) && tokenSha1.equals(Sha1.hex(lease.token()));
    }
}
