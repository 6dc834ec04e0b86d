package dev.lockwarden.admin.ui;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Headers on every response: the dashboard may not be framed (clickjacking a force-release button),
 * scripts load only from the dashboard itself, content types are not sniffed, and no referrer
 * leaves the page. Behind a TLS proxy, browsers are also told to use https only (HSTS).
 * Vaadin's bootstrap page carries its start-up data in an inline script and runs server-sent
 * JavaScript through {@code Function}, hence {@code 'unsafe-inline'} and {@code 'unsafe-eval'};
 * no script from another origin runs.
 */
public final class SecurityHeadersFilter implements Filter {
    /** The Content-Security-Policy sent with every response. */
    public static final String CSP = "frame-ancestors 'none'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; "
            + "object-src 'none'; base-uri 'self'; form-action 'self'";
    /** Strict-Transport-Security behind a TLS proxy: one year. */
    public static final String HSTS = "max-age=31536000";

    private final boolean behindTlsProxy;

    public SecurityHeadersFilter(boolean behindTlsProxy) {
        this.behindTlsProxy = behindTlsProxy;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (response instanceof HttpServletResponse http) {
            http.setHeader("X-Frame-Options", "DENY");
            http.setHeader("Content-Security-Policy", CSP);
            http.setHeader("X-Content-Type-Options", "nosniff");
            http.setHeader("Referrer-Policy", "no-referrer");
            if (behindTlsProxy) {
                http.setHeader("Strict-Transport-Security", HSTS);
            }
        }
        chain.doFilter(request, response);
    }
}
