package dev.lockwarden.config;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed {@code redis://[user[:password]@]host[:port][/db]} or {@code rediss://} (TLS) URI.
 * {@link #toString()} never shows the password.
 */
public record RedisUri(String host, int port, String user, String password, int database, boolean tls) {
    /** Port used when a URI names none. */
    public static final int DEFAULT_PORT = 6379;

    /**
     * Parses and validates; the message of a bad URI shows it with the password masked. The user
     * info runs up to the <em>last</em> {@code @}, so a raw password may contain {@code @}, {@code /} or
     * {@code +} (base64), and {@code :} when a user (or an empty one) comes first:
     * {@code redis://:pass@host}; {@code %XX} escapes are decoded, nothing else is.
     *
     * @param text e.g. {@code redis://user:pass@host:6379/0} or {@code rediss://host}
     * @return the parsed URI
     * @throws IllegalArgumentException what is wrong and how to write it, with the password masked
     */
    public static RedisUri parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("Redis URI is blank: use redis://host:6379 (or rediss:// for TLS)");
        }
        String trimmed = text.trim();
        String shown = mask(trimmed);
        int schemeEnd = trimmed.indexOf("://");
        String userInfo = null;
        String withoutUser = trimmed;
        int at = trimmed.lastIndexOf('@');
        if (schemeEnd >= 0 && at > schemeEnd) {
            userInfo = trimmed.substring(schemeEnd + 3, at);
            withoutUser = trimmed.substring(0, schemeEnd + 3) + trimmed.substring(at + 1);
        }
        URI uri;
        try {
            uri = new URI(withoutUser);
        } catch (URISyntaxException e) {
            // the reason only, never e.getMessage(): that would quote the input
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

    /**
     * The text with every password replaced by {@code ***}: for each {@code scheme://} in it (a
     * comma-separated list masks each URI), everything after the user name up to the last {@code @}
     * of that URI.
     *
     * @param text one URI, a comma-separated list, or any text containing URIs
     * @return the text with passwords masked
     */
    public static String mask(String text) {
        if (text == null) {
            return null;
        }
        List<Integer> starts = new ArrayList<>();
        for (int i = text.indexOf("://"); i >= 0; i = text.indexOf("://", i + 3)) {
            int s = i;
            while (s > 0 && isSchemeChar(text.charAt(s - 1))) {
                s--;
            }
            starts.add(s);
        }
        if (starts.isEmpty()) {
            return maskUserInfo(text);
        }
        StringBuilder out = new StringBuilder(text.length()).append(text, 0, starts.get(0));
        for (int i = 0; i < starts.size(); i++) {
            String one = text.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : text.length());
            int authority = one.indexOf("://") + 3;
            out.append(one, 0, authority).append(maskUserInfo(one.substring(authority)));
        }
        return out.toString();
    }

    private static boolean isSchemeChar(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '+' || c == '.' || c == '-');
    }

    /** {@code user:secret@rest} → {@code user:***@rest}; {@code secret@rest} → {@code ***@rest}. */
    private static String maskUserInfo(String authorityAndRest) {
        int at = authorityAndRest.lastIndexOf('@');
        if (at < 0) {
            return authorityAndRest;
        }
        int colon = authorityAndRest.indexOf(':');
        String user = colon >= 0 && colon < at ? authorityAndRest.substring(0, colon + 1) : "";
        if (!plainUser(user)) {
            user = "***:"; // a "user" with '@' or '/' is more likely the front of a password that contains ':'
        }
        return user + "***" + authorityAndRest.substring(at);
    }

    /** {@return host:port, for error messages and the dashboard} */
    public String address() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private static boolean plainUser(String user) {
        return user.indexOf('@') < 0 && user.indexOf('/') < 0;
    }

    @Override
    public String toString() {
        String shownUser = user == null ? null : plainUser(user) ? user : "***";
        return (tls ? "rediss://" : "redis://")
                + (shownUser != null ? shownUser + ":***@" : password != null ? "***@" : "")
                + address()
                + (database != 0 ? "/" + database : "");
    }

    /** Decodes {@code %XX} escapes only ('+' stays '+', a stray '%' stays literal). */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        int i = 0;
        while (i < s.length()) {
            int hi = s.charAt(i) == '%' && i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (lo >= 0) {
                bytes.write(hi * 16 + lo);
                i += 3;
            } else {
                int cp = s.codePointAt(i);
                bytes.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
