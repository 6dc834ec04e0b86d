package dev.lockwarden.admin;

import dev.lockwarden.admin.security.FirstRunUsers;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.admin.service.LockSearch;
import dev.lockwarden.admin.web.TrustedProxies;
import dev.lockwarden.config.Settings;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

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
 * @param trustedProxies  peers whose {@code X-Forwarded-For}/{@code -Proto} are believed ({@value #TRUSTED_PROXY}, default none)
 * @param publicUrl       the address people open behind the proxy; its host is accepted in {@code Host} ({@value #PUBLIC_URL})
 * @param searchBudget    how long one filter's scan may run before it stops and offers "Keep scanning"
 *                        ({@value #SEARCH_BUDGET}, default 30s; above zero)
 */
public record AdminConfig(
        InetAddress bind,
        int port,
        int pageSize,
        UserDirectory users,
        Duration sessionTimeout,
        boolean behindTlsProxy,
        Duration longHeld,
        TrustedProxies trustedProxies,
        Optional<URI> publicUrl,
        Duration searchBudget) {
    public static final String PORT = "lockwarden.admin.port";
    public static final String BIND = "lockwarden.admin.bind";
    public static final String PAGE_SIZE = "lockwarden.admin.page-size";
    public static final String SESSION_TIMEOUT = "lockwarden.admin.session-timeout";
    public static final String BEHIND_TLS_PROXY = "lockwarden.admin.behind-tls-proxy";
    public static final String LONG_HELD = "lockwarden.admin.long-held";
    public static final String TRUSTED_PROXY = "lockwarden.admin.trusted-proxy";
    public static final String PUBLIC_URL = "lockwarden.admin.public-url";
    public static final String SEARCH_BUDGET = "lockwarden.admin.search-budget";
    /** Lockwarden's own keys (clients, activity, audit): a lock key prefix may not reach into them. */
    public static final String RESERVED_PREFIX = Settings.RESERVED_KEY_PREFIX;

    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofMinutes(30);
    public static final Duration DEFAULT_LONG_HELD = Duration.ofMinutes(10);
    public static final Duration DEFAULT_SEARCH_BUDGET = LockSearch.BUDGET;

    /** Defaults for the session settings. */
    public AdminConfig(InetAddress bind, int port, int pageSize, UserDirectory users) {
        this(
                bind,
                port,
                pageSize,
                users,
                DEFAULT_SESSION_TIMEOUT,
                false,
                DEFAULT_LONG_HELD,
                TrustedProxies.none(),
                Optional.empty(),
                DEFAULT_SEARCH_BUDGET);
    }

    /** The same with another session timeout. */
    public AdminConfig withSessionTimeout(Duration timeout) {
        return new AdminConfig(
                bind,
                port,
                pageSize,
                users,
                timeout,
                behindTlsProxy,
                longHeld,
                trustedProxies,
                publicUrl,
                searchBudget);
    }

    /** The same with {@code behindTlsProxy} set. */
    public AdminConfig withBehindTlsProxy(boolean on) {
        return new AdminConfig(
                bind, port, pageSize, users, sessionTimeout, on, longHeld, trustedProxies, publicUrl, searchBudget);
    }

    /** The same with another long-held threshold. */
    public AdminConfig withLongHeld(Duration threshold) {
        return new AdminConfig(
                bind,
                port,
                pageSize,
                users,
                sessionTimeout,
                behindTlsProxy,
                threshold,
                trustedProxies,
                publicUrl,
                searchBudget);
    }

    /** The same with other trusted proxies. */
    public AdminConfig withTrustedProxies(TrustedProxies proxies) {
        return new AdminConfig(
                bind,
                port,
                pageSize,
                users,
                sessionTimeout,
                behindTlsProxy,
                longHeld,
                proxies,
                publicUrl,
                searchBudget);
    }

    /** The same with a public URL. */
    public AdminConfig withPublicUrl(URI url) {
        return new AdminConfig(
                bind,
                port,
                pageSize,
                users,
                sessionTimeout,
                behindTlsProxy,
                longHeld,
                trustedProxies,
                Optional.of(publicUrl(url.toString(), PUBLIC_URL)),
                searchBudget);
    }

    /** The same with another time budget for one filter's scan. */
    public AdminConfig withSearchBudget(Duration budget) {
        return new AdminConfig(
                bind,
                port,
                pageSize,
                users,
                sessionTimeout,
                behindTlsProxy,
                longHeld,
                trustedProxies,
                publicUrl,
                budget);
    }

    public AdminConfig {
        if (sessionTimeout.compareTo(Duration.ofSeconds(1)) < 0 || sessionTimeout.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException(
                    SESSION_TIMEOUT + "=" + sessionTimeout + " is out of range: use 1s..1d, e.g. 30m");
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
        if (searchBudget.isNegative() || searchBudget.isZero()) {
            throw new IllegalArgumentException(SEARCH_BUDGET + "=" + searchBudget + " is not above zero: give "
                    + "--search-budget (or " + SEARCH_BUDGET + ") a positive duration, e.g. 30s");
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
        checkKeyPrefix(settings);
        TrustedProxies proxies = settings.raw(TRUSTED_PROXY)
                .map(s -> TrustedProxies.parse(s.value(), s.where()))
                .orElse(TrustedProxies.none());
        Optional<URI> url = settings.raw(PUBLIC_URL).map(s -> publicUrl(s.value(), s.where()));
        Duration longHeld = settings.duration(LONG_HELD, DEFAULT_LONG_HELD);
        Duration searchBudget = settings.duration(SEARCH_BUDGET, DEFAULT_SEARCH_BUDGET);
        if (searchBudget.isNegative() || searchBudget.isZero()) {
            Settings.Source s = settings.raw(SEARCH_BUDGET).orElseThrow();
            throw new IllegalArgumentException(s.where() + "='" + s.value() + "' is not above zero: give "
                    + "--search-budget (or " + SEARCH_BUDGET + ") a positive duration, e.g. 30s");
        }
        return new AdminConfig(
                bind,
                port,
                pageSize,
                UserDirectory.configured(settings, systemProperties)
                        .orElseGet(() ->
                                FirstRunUsers.create(FirstRunUsers.jarDirectory(), System.out, Terminal.isTerminal())),
                timeout,
                proxy,
                longHeld,
                proxies,
                url,
                searchBudget);
    }

    /** A prefix such as {@code lockwarden:jvm:} would let lock keys pose as clients or break the Activity view. */
    static void checkKeyPrefix(Settings settings) {
        String prefix = settings.string(Settings.KEY_PREFIX, "lock:");
        if (Settings.overlapsReservedKeys(prefix)) {
            throw new IllegalArgumentException(
                    Settings.KEY_PREFIX + "='" + prefix + "' overlaps Lockwarden's own keys ("
                            + RESERVED_PREFIX + "*): choose a prefix that does not start with '" + RESERVED_PREFIX
                            + "' and is not a start of it, e.g. lock:");
        }
    }

    private static URI publicUrl(String value, String where) {
        try {
            URI u = new URI(value);
            if (("http".equals(u.getScheme()) || "https".equals(u.getScheme())) && u.getHost() != null) {
                return u;
            }
        } catch (java.net.URISyntaxException e) {
            // the message below says what is expected
        }
        throw new IllegalArgumentException(where + "='" + value + "' is not an http(s) URL with a host: give the "
                + "address people open, e.g. https://locks.example.com/");
    }

    private static boolean bool(Settings settings, String property) {
        Optional<Settings.Source> s = settings.raw(property);
        if (s.isEmpty()) {
            return false;
        }
        return switch (s.get().value().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default ->
                throw new IllegalArgumentException(
                        s.get().where() + "='" + s.get().value() + "' is not a boolean: use true or false");
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
