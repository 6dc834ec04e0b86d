package dev.lockwarden.admin.web;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.util.Collections;
import java.util.List;

/**
 * Gives the rest of the dashboard (login throttle, login audit) the client's address and scheme as
 * {@link TrustedProxies} establish them: from a trusted proxy's {@code X-Forwarded-For} and
 * {@code X-Forwarded-Proto}, from anyone else the TCP peer and plain HTTP.
 */
public final class ForwardedHeadersFilter implements Filter {
    private final TrustedProxies proxies;

    public ForwardedHeadersFilter(TrustedProxies proxies) {
        this.proxies = proxies;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http && proxies.trusts(http.getRemoteAddr())) {
            List<String> hops = Collections.list(http.getHeaders("X-Forwarded-For"));
            String client = proxies.client(http.getRemoteAddr(), hops);
            List<String> protos = Collections.list(http.getHeaders("X-Forwarded-Proto"));
            boolean https = !protos.isEmpty()
                    && "https".equalsIgnoreCase(protos.get(protos.size() - 1).strip());
            chain.doFilter(new Forwarded(http, client, https), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static final class Forwarded extends HttpServletRequestWrapper {
        private final String client;
        private final boolean https;

        Forwarded(HttpServletRequest request, String client, boolean https) {
            super(request);
            this.client = client;
            this.https = https;
        }

        @Override
        public String getRemoteAddr() {
            return client;
        }

        @Override
        public String getRemoteHost() {
            return client;
        }

        @Override
        public boolean isSecure() {
            return https || super.isSecure();
        }

        @Override
        public String getScheme() {
            return https ? "https" : super.getScheme();
        }
    }
}
