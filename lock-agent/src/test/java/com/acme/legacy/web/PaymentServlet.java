package com.acme.legacy.web;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import redis.clients.jedis.Jedis;

/** {@code POST /pay?id=...}: knows nothing of Lockwarden. */
public class PaymentServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private transient PaymentService payments;

    @Override
    public void init() {
        payments = new PaymentService("127.0.0.1", Integer.getInteger("legacy.redis.port"));
        System.out.println("WEBAPP-JEDIS " + Jedis.class.getProtectionDomain().getCodeSource().getLocation()
                + " loader=" + getClass().getClassLoader().getClass().getName());
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
