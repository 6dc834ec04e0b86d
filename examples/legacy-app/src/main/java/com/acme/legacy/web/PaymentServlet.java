package com.acme.legacy.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import redis.clients.jedis.Jedis;

/**
 * {@code POST /pay?id=...}: knows nothing of Lockwarden. Its Redis: {@code -Dlegacy.redis=host:port} (default
 * 127.0.0.1:6379); the card processor's delay: {@code -Dlegacy.card.millis} (default 100).
 */
public class PaymentServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private transient PaymentService payments;

    @Override
    public void init() {
        String[] redis = System.getProperty("legacy.redis", "127.0.0.1:6379").split(":", 2);
        payments = new PaymentService(redis[0], Integer.parseInt(redis[1]), Long.getLong("legacy.card.millis", 100));
        System.out.println("WEBAPP-JEDIS "
                + Jedis.class.getProtectionDomain().getCodeSource().getLocation() + " loader="
                + getClass().getClassLoader().getClass().getName());
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        String id = req.getParameter("id");
        try {
            String result = payments.charge(id);
            resp.setContentType("text/plain");
            resp.getWriter().print(result);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServletException(e);
        }
    }
}
