package dev.lockwarden.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A parsed {@code redis://[user[:password]@]host[:port][/db]} or {@code rediss://} (TLS) URI.
 * {@link #toString()} never shows the password.
 */
public record RedisUri(String host, int port, String user, String password, int database, boolean tls) {
    public static final int DEFAULT_PORT = 6379;

    /** Parses and validates; the message of a bad URI shows it with the password masked. */
    public static RedisUri parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("Redis URI is blank: use redis://host:6379 (or rediss:// for TLS)");
        }
        String shown = mask(text.trim());
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Redis URI '" + shown + "' is malformed (" + e.getReason()
                    + "): use redis://[user:password@]host:port[/db]");
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("redis") || scheme.equals("rediss"))) {
            throw new IllegalArgumentException("Redis URI '" + shown + "' must start with redis:// or rediss:// (TLS)");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("Redis URI '" + shown + "' has no host: use redis://host:6379");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("Redis URI '" + shown + "' has port " + port + ": use 1..65535");
        }
        String user = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo); // redis://secret@host is the common password-only form
            } else {
                String u = decode(userInfo.substring(0, colon));
                user = u.isEmpty() ? null : u;
                password = decode(userInfo.substring(colon + 1));
            }
        }
        int db = 0;
        String path = uri.getPath();
        if (path != null && path.length() > 1) {
            try {
                db = Integer.parseInt(path.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Redis URI '" + shown + "' has database '" + path.substring(1)
                        + "': the path must be a database number such as /0");
            }
            if (db < 0) {
                throw new IllegalArgumentException("Redis URI '" + shown + "' has a negative database number");
            }
        }
        return new RedisUri(host, port, user, password, db, scheme.equals("rediss"));
    }

    /** The URI text with any password replaced by {@code ***}. */
    public static String mask(String text) {
        return text.replaceAll("(?<=://)([^:@/]*):([^@/]*)@", "$1:***@")
                .replaceAll("(?<=://)([^:@/]+)@", "***@");
    }

    /** host:port, for error messages and the dashboard. */
    public String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "rediss://" : "redis://") + (user != null ? user + ":***@" : password != null ? "***@" : "")
                + address() + (database != 0 ? "/" + database : "");
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
