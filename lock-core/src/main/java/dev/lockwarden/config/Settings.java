package dev.lockwarden.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads one {@code lockwarden.*} setting: system property, then environment
 * ({@code LOCKWARDEN_*}), then the caller's default. Explicit builder values win over all of these
 * and never reach this class.
 */
public final class Settings {
    /** Redis URI of one node. */
    public static final String REDIS = "lockwarden.redis";
    /** Redlock nodes, comma-separated URIs. */
    public static final String REDLOCK = "lockwarden.redlock";
    /** Cluster seed nodes, comma-separated URIs. */
    public static final String CLUSTER = "lockwarden.cluster";
    /** Replica acknowledgement of every lock: {@code replicas/timeout}, e.g. {@code 1/100ms}, or {@code off}. */
    public static final String REPLICA_ACKS = "lockwarden.replica-acks";
    /** Sentinel: the master's name, {@code @}, the sentinels' comma-separated URIs ({@code mymaster@redis://s1:26379,...}). */
    public static final String SENTINEL = "lockwarden.sentinel";
    /** Application name shown on the dashboard. */
    public static final String APPLICATION = "lockwarden.application";
    /** Prefix of every lock key. */
    public static final String KEY_PREFIX = "lockwarden.key-prefix";
    /** What every key of Lockwarden's own (heartbeats, events, audit, activity) starts with. */
    public static final String RESERVED_KEY_PREFIX = "lockwarden:";
    /** Default TTL. */
    public static final String TTL = "lockwarden.ttl";
    /** Default wait budget. */
    public static final String WAIT = "lockwarden.wait";
    /** How long a fence counter survives without acquisitions. */
    public static final String FENCE_RETENTION = "lockwarden.fence-retention";
    /**
     * Whether every acquire/release cycle is recorded in the lock's own capped history (default
     * false: it costs three commands in Redis per cycle and a stream per distinct name, docs/lifecycle.md).
     */
    public static final String HISTORY_CYCLES = "lockwarden.history.cycles";
    /** How long a lock's history stream outlives its last entry (default 1 day). */
    public static final String HISTORY_RETENTION = "lockwarden.history.retention";
    /** TLS for {@code rediss://}: see {@link TlsSettings}; passwords are never shown. */
    public static final String TLS_TRUST_STORE = "lockwarden.tls.trust-store";
    /** Password of the trust store. */
    public static final String TLS_TRUST_STORE_PASSWORD = "lockwarden.tls.trust-store-password";
    /** Type of the trust store (default PKCS12). */
    public static final String TLS_TRUST_STORE_TYPE = "lockwarden.tls.trust-store-type";
    /** Key store with the client's key, for mutual TLS. */
    public static final String TLS_KEY_STORE = "lockwarden.tls.key-store";
    /** Password of the key store. */
    public static final String TLS_KEY_STORE_PASSWORD = "lockwarden.tls.key-store-password";
    /** Type of the key store (default PKCS12). */
    public static final String TLS_KEY_STORE_TYPE = "lockwarden.tls.key-store-type";

    private final Function<String, String> properties;
    private final Map<String, String> environment;

    /**
     * @param properties  system properties (or a stand-in), by name
     * @param environment environment variables (or a stand-in)
     */
    public Settings(Function<String, String> properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** {@return settings from {@link System#getProperty} and {@link System#getenv()}} */
    public static Settings fromSystem() {
        return new Settings(System::getProperty, System.getenv());
    }

    /**
     * @param property a setting's name, e.g. {@link #TTL}
     * @return the raw value and where it came from, if set
     */
    public Optional<Source> raw(String property) {
        String v = properties.apply(property);
        if (v != null && !v.isBlank()) {
            return Optional.of(new Source(v.trim(), "system property " + property));
        }
        String env = envName(property);
        v = environment.get(env);
        if (v != null && !v.isBlank()) {
            return Optional.of(new Source(v.trim(), "environment variable " + env));
        }
        return Optional.empty();
    }

    /**
     * @param property a setting's name
     * @param fallback used when it is not set
     * @return the value
     */
    public String string(String property, String fallback) {
        return raw(property).map(Source::value).orElse(fallback);
    }

    /**
     * @param property a setting's name
     * @param fallback used when it is not set
     * @return the value as a duration
     * @throws IllegalArgumentException the value is not a duration (the message names where it was set)
     */
    public Duration duration(String property, Duration fallback) {
        return raw(property).map(s -> Durations.parse(s.value(), s.where())).orElse(fallback);
    }

    /**
     * @param property a setting's name
     * @param fallback used when it is not set
     * @return the value as a boolean ({@code true}/{@code false}, {@code on}/{@code off}, {@code yes}/{@code no})
     * @throws IllegalArgumentException any other value (the message names where it was set)
     */
    public boolean bool(String property, boolean fallback) {
        return raw(property)
                .map(s -> switch (s.value().toLowerCase(java.util.Locale.ROOT)) {
                    case "true", "on", "yes" -> true;
                    case "false", "off", "no" -> false;
                    default ->
                        throw new IllegalArgumentException(
                                s.where() + " must be true or false, got '" + s.value() + "'");
                })
                .orElse(fallback);
    }

    /**
     * @param property e.g. {@code lockwarden.key-prefix}
     * @return its environment variable, e.g. {@code LOCKWARDEN_KEY_PREFIX}
     */
    public static String envName(String property) {
        return property.toUpperCase().replace('.', '_').replace('-', '_');
    }

    /** A setting's value and where it was found, for error messages. */
    public record Source(String value, String where) {
        /** Where it came from only: a value may be a Redis URI with a password or a store password. */
        @Override
        public String toString() {
            return "Source[" + where + "]";
        }
    }

    /**
     * Checks a lock key prefix: no braces (the lock name is the key's hash tag), and no overlap with
     * Lockwarden's own {@code lockwarden:*} keys, which lock keys would otherwise pose as (and a listing walk).
     *
     * @param prefix the prefix
     * @throws IllegalArgumentException naming the prefix and the fix
     */
    public static void checkKeyPrefix(String prefix) {
        if (prefix == null || prefix.contains("{") || prefix.contains("}")) {
            throw new IllegalArgumentException("key prefix '" + prefix + "' must not be null or contain '{' or '}'");
        }
        if (overlapsReservedKeys(prefix)) {
            throw new IllegalArgumentException("key prefix '" + prefix + "' overlaps Lockwarden's own keys ("
                    + RESERVED_KEY_PREFIX + "*): choose one that does not start with '" + RESERVED_KEY_PREFIX
                    + "' and is not a start of it, e.g. lock:");
        }
    }

    /**
     * Whether lock keys with this prefix could collide with, or a listing walk, Lockwarden's own
     * {@code lockwarden:*} keys: the prefix starts with {@code lockwarden:} or is a start of it.
     *
     * @param prefix the prefix
     * @return true if it overlaps
     */
    public static boolean overlapsReservedKeys(String prefix) {
        return prefix.startsWith(RESERVED_KEY_PREFIX) || RESERVED_KEY_PREFIX.startsWith(prefix);
    }
}
