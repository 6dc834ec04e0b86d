package dev.lockwarden.admin;

import java.net.InetAddress;
import java.time.Duration;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Properties;

import dev.lockwarden.config.Settings;
import dev.lockwarden.admin.security.FirstRunUsers;
import dev.lockwarden.admin.security.UserDirectory;

/**
 * The dashboard's own settings (Redis comes from the usual {@code lockwarden.*} settings).
 *
 * @param bind     loopback address to listen on ({@value #BIND}, default 127.0.0.1)
 * @param port     TCP port ({@value #PORT}, default 8080; 0 = a free port)
 * @param pageSize locks per "load more" page ({@value #PAGE_SIZE}, default 50)
 * @param users    who may log in
 * @param sessionTimeout  a session with no user activity this long is logged out; the 1 s refresh is
 *                        not activity ({@value #SESSION_TIMEOUT}, default 30m)
 * @param behindTlsProxy  trust {@code X-Forwarded-*} / {@code Forwarded} headers (client address, https)
 *                        and mark the session cookie {@code Secure} ({@value #BEHIND_TLS_PROXY}, default false)
 * @param longHeld        locks held longer are marked LONG-HELD ({@value #LONG_HELD}, default 10m)
 */
public record AdminConfig(InetAddress bind, int port, int pageSize, UserDirectory users, Duration sessionTimeout,
                          boolean behindTlsProxy, Duration longHeld) {
    public static final String PORT = "lockwarden.admin.port";
    public static final String BIND = "lockwarden.admin.bind";
    public static final String PAGE_SIZE = "lockwarden.admin.page-size";
    public static final String SESSION_TIMEOUT = "lockwarden.admin.session-timeout";
    public static final String BEHIND_TLS_PROXY = "lockwarden.admin.behind-tls-proxy";
    public static final String LONG_HELD = "lockwarden.admin.long-held";
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration DEFAULT_LONG_HELD = Duration.ofMinutes(10);

    /** Defaults for the session settings. */
    public AdminConfig(InetAddress bind, int port, int pageSize, UserDirectory users) {
        this(bind, port, pageSize, users, DEFAULT_SESSION_TIMEOUT, false, DEFAULT_LONG_HELD);
    }

    /** The same with another session timeout. */
    public AdminConfig withSessionTimeout(Duration timeout) {
        return new AdminConfig(bind, port, pageSize, users, timeout, behindTlsProxy, longHeld);
    }

    /** The same with {@code behindTlsProxy} set. */
    public AdminConfig withBehindTlsProxy(boolean on) {
        return new AdminConfig(bind, port, pageSize, users, sessionTimeout, on, longHeld);
    }

    /** The same with another long-held threshold. */
    public AdminConfig withLongHeld(Duration threshold) {
        return new AdminConfig(bind, port, pageSize, users, sessionTimeout, behindTlsProxy, threshold);
    }

    public AdminConfig {
        if (sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0 || sessionTimeout.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException(SESSION_TIMEOUT + "=" + sessionTimeout + " is out of range: use 1s..1d, e.g. 30m");
        }
        if (!bind.isLoopbackAddress()) {
            throw new IllegalArgumentException(BIND + "=" + bind.getHostAddress() + " is not a loopback address: the "
                    + "dashboard serves plain HTTP, so keep 127.0.0.1 and put a TLS reverse proxy in front of it");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(PORT + "=" + port + " is out of range: use 0..65535 (0 = a free port)");
        }
        if (pageSize < 1 || pageSize > 10_000) {
            throw new IllegalArgumentException(PAGE_SIZE + "=" + pageSize + " is out of range: use 1..10000");
        }
    }

    /**
     * Reads system properties, then {@code LOCKWARDEN_ADMIN_*} environment variables, then defaults.
     * With no users configured at all, {@link FirstRunUsers} creates an operator.
     */
    public static AdminConfig load(Settings settings, Properties systemProperties) {
        InetAddress bind = address(settings);
        int port = integer(settings, PORT, 8080);
        int pageSize = integer(settings, PAGE_SIZE, 50);
        Duration timeout = settings.duration(SESSION_TIMEOUT, DEFAULT_SESSION_TIMEOUT);
        boolean proxy = bool(settings, BEHIND_TLS_PROXY);
        return new AdminConfig(bind, port, pageSize, UserDirectory.configured(settings, systemProperties)
                .orElseGet(() -> FirstRunUsers.create(FirstRunUsers.jarDirectory(), System.out)), timeout, proxy,
                settings.duration(LONG_HELD, DEFAULT_LONG_HELD));
    }

    private static boolean bool(Settings settings, String property) {
        Optional<Settings.Source> s = settings.raw(property);
        if (s.isEmpty()) {
            return false;
        }
        return switch (s.get().value().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(s.get().where() + "='" + s.get().value() + "' is not a boolean: use true or false");
        };
    }

    private static int integer(Settings settings, String property, int fallback) {
        Optional<Settings.Source> s = settings.raw(property);
        if (s.isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(s.get().value());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s.get().where() + "='" + s.get().value() + "' is not a number: set "
                    + property + " to a whole number such as " + fallback);
        }
    }

    private static InetAddress address(Settings settings) {
        String host = settings.string(BIND, "127.0.0.1");
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(BIND + "='" + host + "' is not a known address: use 127.0.0.1 or ::1");
        }
    }
}
