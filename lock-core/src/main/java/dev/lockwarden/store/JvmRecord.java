package dev.lockwarden.store;

import java.util.Map;

/**
 * The part of the holder info that is the same for every lock of one {@code LockManager}:
 * application, host and pid, stored once per JVM under {@code lockwarden:holder:<jvmId>} (a hash
 * with those three fields) instead of in every lock's info hash. It outlives the heartbeat (which
 * expires within seconds of the JVM's death) so a lock left behind by a dead JVM still shows who
 * held it.
 *
 * @param application application name
 * @param host        host name
 * @param pid         process id
 */
public record JvmRecord(String application, String host, long pid) {
    /** Prefix of the per-JVM holder hashes (not {@link KeySpace#JVM_PREFIX}: that SCAN lists live clients). */
    public static final String PREFIX = "lockwarden:holder:";
    /** How long the record lives without being written again (the heartbeat renews it every few seconds). */
    public static final long TTL_MILLIS = java.util.concurrent.TimeUnit.DAYS.toMillis(7);
    /** An unknown JVM: empty fields. */
    public static final JvmRecord UNKNOWN = new JvmRecord("", "", 0);

    public JvmRecord {
        application = application == null ? "" : application;
        host = host == null ? "" : host;
    }

    public static String key(String jvmId) {
        return PREFIX + jvmId;
    }

    /** The hash fields. */
    public Map<String, String> fields() {
        return Map.of("app", application, "host", host, "pid", Long.toString(pid));
    }

    /** From the hash fields (or from an older client's per-lock info hash, which has the same names); UNKNOWN if empty. */
    public static JvmRecord of(Map<String, String> fields) {
        if (fields == null || !fields.containsKey("app")) {
            return UNKNOWN;
        }
        long pid;
        try {
            pid = Long.parseLong(fields.getOrDefault("pid", "0"));
        } catch (NumberFormatException e) {
            pid = 0;
        }
        return new JvmRecord(fields.get("app"), fields.get("host"), pid);
    }
}
