package dev.lockwarden.store;

import dev.lockwarden.config.Settings;

/**
 * Key names of the Redis data model. All keys of one lock share the hash tag {@code {name}}, so one
 * Lua script touches them atomically on Redis Cluster. Lock names cannot contain braces
 * ({@link LockNames}), which keeps the tag unambiguous.
 */
public record KeySpace(String prefix) {
    /** Stream of lost, late-release and force-release events (each cycle goes to the lock's own history). */
    public static final String EVENTS = "lockwarden:events";
    /** Stream of force-release audit records. */
    public static final String AUDIT = "lockwarden:audit";
    /** Prefix of each client JVM's heartbeat key. */
    public static final String JVM_PREFIX = "lockwarden:jvm:";
    /** Prefix of the per-application, per-minute activity hashes: {@code <prefix><application>:<epochMinute>}. */
    public static final String ACTIVITY_PREFIX = "lockwarden:activity:";
    /** Suffix of a lock's holder info hash. */
    public static final String INFO_SUFFIX = ":info";
    /** Suffix of a lock's fence counter. */
    public static final String FENCE_SUFFIX = ":fence";
    /** Suffix of the lock's own capped history stream. */
    public static final String HISTORY_SUFFIX = ":history";
    /** Entries a lock's history keeps ({@code MAXLEN ~}: Redis trims whole stream nodes, so up to ~100 more). */
    public static final long HISTORY_MAX_LEN = 100;
    /** Suffix of a lock's waiter mark: set by a waiter's busy attempt, so the release sends its message. */
    public static final String WAITERS_SUFFIX = ":waiters";
    /** Suffix of the release channel. */
    public static final String RELEASED_SUFFIX = ":released";

    public KeySpace {
        Settings.checkKeyPrefix(prefix);
    }

    public String lock(String name) {
        return prefix + "{" + name + "}";
    }

    public String info(String name) {
        return lock(name) + INFO_SUFFIX;
    }

    public String fence(String name) {
        return lock(name) + FENCE_SUFFIX;
    }

    /** Pub/sub channel announcing a release; hash-tagged like the lock. */
    public String releasedChannel(String name) {
        return lock(name) + RELEASED_SUFFIX;
    }

    /** The lock's own capped history stream (cycles, force-releases, lost locks; hash-tagged like the lock). */
    public String history(String name) {
        return lock(name) + HISTORY_SUFFIX;
    }

    /**
     * Short-lived hash a force-release leaves (old token's SHA-1, operator, new fence) for the old holder,
     * whose refresh then reports "force-released by ..." (hash-tagged like the lock).
     */
    public String forced(String name) {
        return lock(name) + ":forced";
    }

    /**
     * The one channel on which every force-release of this prefix tells the holder (payload:
     * {@link ForceReleased}); each manager subscribes to it once, so holding a lock costs no command.
     */
    public String forceReleasedChannel() {
        return prefix + "force-released";
    }

    /**
     * Per Redlock node: the microsecond at which the node was last found without data (acquire.lua), so that a
     * missing fence counter can take the whole second as its floor once that moment is a second behind. Not a
     * lock key: {@link #nameOf(String)} and the lock patterns do not match it.
     */
    public String fenceEpoch() {
        return prefix + "fence-epoch";
    }

    /** The lock name in a lock key or channel, or null if the key is not one of ours. */
    public String nameOf(String key) {
        int open = prefix.length();
        if (!key.startsWith(prefix) || key.length() < open + 2 || key.charAt(open) != '{') {
            return null;
        }
        int close = key.indexOf('}', open);
        return close < 0 ? null : key.substring(open + 1, close);
    }

    /** SCAN pattern matching lock keys only (not :info/:fence), with glob characters of the prefix escaped. */
    public String lockPattern(String namePrefix) {
        return escapeGlob(prefix) + "{" + escapeGlob(namePrefix) + "*}";
    }

    /** SCAN pattern matching the fence counters of the locks whose names start with {@code namePrefix}. */
    public String fencePattern(String namePrefix) {
        return lockPattern(namePrefix) + FENCE_SUFFIX;
    }

    /** SCAN pattern matching every key that starts with {@code literal} (glob characters in it escaped). */
    public static String startingWith(String literal) {
        return escapeGlob(literal) + "*";
    }

    static String escapeGlob(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    public static String jvmKey(String jvmId) {
        return JVM_PREFIX + jvmId;
    }
}
