package dev.lockwarden.admin.ui;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Headers on every response: the dashboard may not be framed (clickjacking a force-release button),
 * content types are not sniffed, and no referrer leaves the page. The CSP sets only
 * {@code frame-ancestors}: Vaadin's bootstrap needs inline scripts.
 */
public final class SecurityHeadersFilter implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (response instanceof HttpServletResponse http) {
            http.setHeader("X-Frame-Options", "DENY");
            http.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
            http.setHeader("X-Content-Type-Options", "nosniff");
            http.setHeader("Referrer-Policy", "no-referrer");
        }
        chain.doFilter(request, response);
    }
}
