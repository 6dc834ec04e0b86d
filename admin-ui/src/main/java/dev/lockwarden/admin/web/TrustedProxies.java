package dev.lockwarden.admin.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.util.InetAddressSet;

/**
 * The reverse proxies whose {@code X-Forwarded-For} / {@code X-Forwarded-Proto} headers are believed
 * ({@code --trusted-proxy CIDR[,CIDR...]}). A client can write anything into {@code X-Forwarded-For};
 * only the hops a trusted proxy appended are facts, so the client is the right-most hop that is not a
 * trusted proxy itself. From any other peer the headers are ignored.
 */
public final class TrustedProxies {
    private static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<String> cidrs;
    private final InetAddressSet set = new InetAddressSet();

    private TrustedProxies(List<String> cidrs) {
        this.cidrs = List.copyOf(cidrs);
        this.set.addAll(cidrs);
    }

    /** No proxy is trusted: forwarded headers are always ignored. */
    public static TrustedProxies none() {
        return NONE;
    }

    /**
     * @param list comma-separated addresses or CIDR blocks, e.g. {@code 127.0.0.1/32,::1}
     * @param where the setting it came from, for the error message
     */
    public static TrustedProxies parse(String list, String where) {
        List<String> cidrs = new ArrayList<>();
        for (String part : list.split(",")) {
            String cidr = part.strip();
            if (cidr.isEmpty()) {
                continue;
            }
            int slash = cidr.indexOf('/');
            String address = slash < 0 ? cidr : cidr.substring(0, slash);
            Optional<InetAddress> parsed = literal(address);
            int max = parsed.map(a -> a.getAddress().length * 8).orElse(0);
            boolean bitsOk = slash < 0
                    || cidr.substring(slash + 1).matches("\\d{1,3}")
                            && Integer.parseInt(cidr.substring(slash + 1)) <= max;
            if (parsed.isEmpty() || !bitsOk) {
                throw new IllegalArgumentException(
                        where + ": '" + cidr + "' is not an IP address or CIDR block: list the "
                                + "proxy's addresses such as 127.0.0.1/32 or 10.0.0.0/8, comma-separated (no host names)");
            }
            cidrs.add(cidr);
        }
        if (cidrs.isEmpty()) {
            throw new IllegalArgumentException(
                    where + " is empty: give the reverse proxy's address, e.g. 127.0.0.1/32");
        }
        return new TrustedProxies(cidrs);
    }

    /** Whether any proxy is trusted. */
    public boolean any() {
        return !cidrs.isEmpty();
    }

    /** Whether {@code address} (an IP literal) is a trusted proxy. */
    public boolean trusts(String address) {
        return literal(address).map(set::test).orElse(false);
    }

    /**
     * The client's address: the peer itself unless it is a trusted proxy; then the right-most hop of
     * {@code forwardedFor} (every {@code X-Forwarded-For} value in order) that is not a trusted proxy.
     * A hop that is not an IP address ends the walk at the last trusted one (a proxy appends only addresses).
     */
    public String client(String peer, List<String> forwardedFor) {
        if (!trusts(peer)) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        for (String header : forwardedFor) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.strip());
                }
            }
        }
        String client = peer;
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (literal(hop).isEmpty()) {
                return client;
            }
            client = hop;
            if (!trusts(hop)) {
                return hop;
            }
        }
        return client;
    }

    /** An IP literal only: never a DNS lookup. */
    static Optional<InetAddress> literal(String s) {
        String bare = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        if (bare.isEmpty() || !bare.matches("[0-9A-Fa-f:.]+") || !bare.matches(".*[.:].*")) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(bare));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return String.join(",", cidrs);
    }
}
