package dev.lockwarden.admin.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/**
 * Answers 421 to a request whose {@code Host} is not one of this dashboard's names (the bound address,
 * {@code localhost}, the {@code --public-url} host). A page on another site can make a browser
 * resolve its own name to 127.0.0.1 (DNS rebinding); its requests then carry that site's name here.
 */
public final class HostCheckFilter implements Filter {
    private final Set<String> hosts;

    /** @param hosts the accepted host names and address literals (IPv6 without brackets), any case */
    public HostCheckFilter(Set<String> hosts) {
        this.hosts =
                hosts.stream().map(HostCheckFilter::normal).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse out) {
            String host = hostName(http.getHeader("Host"));
            if (host == null || !hosts.contains(normal(host))) {
                out.setStatus(421);
                out.setContentType("text/plain;charset=utf-8");
                out.getWriter()
                        .println("This dashboard does not answer to this host name. Open it by its own address, "
                                + "or start it with --public-url set to the address people use.");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** Lower case; an IP literal in its one canonical form (::1 and 0:0:0:0:0:0:0:1 are the same host). */
    private static String normal(String host) {
        return TrustedProxies.literal(host)
                .map(java.net.InetAddress::getHostAddress)
                .orElse(host.toLowerCase(Locale.ROOT));
    }

    /** The host of a {@code Host} header without the port, IPv6 without brackets; null when absent or malformed. */
    static String hostName(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        String h = header.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? null : h.substring(1, end);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }
}
