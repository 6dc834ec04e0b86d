package dev.lockwarden.admin;

import java.net.InetAddress;
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
 */
public record AdminConfig(InetAddress bind, int port, int pageSize, UserDirectory users) {
    public static final String PORT = "lockwarden.admin.port";
    public static final String BIND = "lockwarden.admin.bind";
    public static final String PAGE_SIZE = "lockwarden.admin.page-size";

    public AdminConfig {
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
        return new AdminConfig(address(settings), integer(settings, PORT, 8080), integer(settings, PAGE_SIZE, 50),
                UserDirectory.configured(settings, systemProperties)
                        .orElseGet(() -> FirstRunUsers.create(FirstRunUsers.jarDirectory(), System.out)));
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
