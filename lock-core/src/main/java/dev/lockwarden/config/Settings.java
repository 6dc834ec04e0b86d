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
    public static final String REDIS = "lockwarden.redis";
    public static final String REDLOCK = "lockwarden.redlock";
    public static final String CLUSTER = "lockwarden.cluster";
    public static final String APPLICATION = "lockwarden.application";
    public static final String KEY_PREFIX = "lockwarden.key-prefix";
    public static final String TTL = "lockwarden.ttl";
    public static final String WAIT = "lockwarden.wait";
    public static final String FENCE_RETENTION = "lockwarden.fence-retention";
    /** TLS for {@code rediss://}: see {@link TlsSettings}; passwords are never shown. */
    public static final String TLS_TRUST_STORE = "lockwarden.tls.trust-store";
    public static final String TLS_TRUST_STORE_PASSWORD = "lockwarden.tls.trust-store-password";
    public static final String TLS_TRUST_STORE_TYPE = "lockwarden.tls.trust-store-type";
    public static final String TLS_KEY_STORE = "lockwarden.tls.key-store";
    public static final String TLS_KEY_STORE_PASSWORD = "lockwarden.tls.key-store-password";
    public static final String TLS_KEY_STORE_TYPE = "lockwarden.tls.key-store-type";

    private final Function<String, String> properties;
    private final Map<String, String> environment;

    public Settings(Function<String, String> properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** Settings from {@link System#getProperty} and {@link System#getenv()}. */
    public static Settings fromSystem() {
        return new Settings(System::getProperty, System.getenv());
    }

    /** The raw value and where it came from, if set. */
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

    public String string(String property, String fallback) {
        return raw(property).map(Source::value).orElse(fallback);
    }

    public Duration duration(String property, Duration fallback) {
        return raw(property).map(s -> Durations.parse(s.value(), s.where())).orElse(fallback);
    }

    /** {@code lockwarden.key-prefix} → {@code LOCKWARDEN_KEY_PREFIX}. */
    public static String envName(String property) {
        return property.toUpperCase().replace('.', '_').replace('-', '_');
    }

    /** A setting's value and where it was found, for error messages. */
    public record Source(String value, String where) {
    }
}
