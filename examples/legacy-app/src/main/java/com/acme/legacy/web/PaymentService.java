package com.acme.legacy.web;

import redis.clients.jedis.Jedis;

/**
 * Legacy payment code with a check-then-act race: two requests for the same payment that overlap both see it
 * unpaid and both charge it. Charges are counted in Redis (with the web app's own Jedis), shared by every JVM.
 */
public class PaymentService {
    private final String host;
    private final int port;
    private final long cardMillis;

    /** {@code cardMillis}: how long the "card processor" takes per charge. */
    public PaymentService(String host, int port, long cardMillis) {
        this.host = host;
        this.port = port;
        this.cardMillis = cardMillis;
    }

    /** Charges payment {@code id} unless it was charged already; returns "charged" or "already charged". */
    public String charge(String id) throws InterruptedException {
        try (Jedis redis = new Jedis(host, port)) {
            if (redis.get("paid:" + id) != null) {
                return "already charged";
            }
            Thread.sleep(cardMillis); // talks to the card processor
            redis.incr("charges:" + id);
            redis.set("paid:" + id, "yes");
            return "charged";
        }
    }
}
