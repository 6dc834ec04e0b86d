package dev.lockwarden.admin.ui.locks;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The link of one lock's details, {@code locks/<name>}, with the name as one path segment,
 * percent-encoded as UTF-8 (RFC 3986). Only letters, digits and {@code -._*:@} stay as they are, so
 * {@code locks/payment:TX-123} reads as typed, while {@code #}, {@code ?}, {@code %}, {@code /},
 * {@code +}, {@code &}, spaces and non-ASCII are encoded: written raw, a pasted link would open another
 * lock or none. The router decodes the segment again ({@link LocksView#setParameter}), and a query
 * value is decoded by Vaadin as a form value (where {@code +} is a space; here it is always {@code %2B}).
 */
final class DeepLink {
    private DeepLink() {}

    /**
     * The relative link, e.g. {@code locks/orders:42} or {@code locks/a%2Fb%23c}. Two kinds of names
     * cannot be a path segment, so theirs is {@code locks?name=<encoded name>}: those with a {@code .}
     * or {@code ..} part between slashes (browsers and servers resolve these, also as {@code %2E} or
     * between {@code %2F}), and those with a backslash (Jetty refuses {@code %5C} as suspicious).
     */
    static String path(String name) {
        return pathSegmentSafe(name) ? "locks/" + encode(name) : "locks?name=" + encode(name);
    }

    private static boolean pathSegmentSafe(String name) {
        return name.indexOf('\\') < 0
                && Arrays.stream(name.split("/", -1)).noneMatch(part -> part.equals(".") || part.equals(".."));
    }

    /** Form-encoding (RFC 3986 percent-encoding apart from its '+' for a space), with ':' and '@' kept. */
    private static String encode(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("%3A", ":")
                .replace("%40", "@");
    }
}
