package com.acme.legacy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Legacy methods the agent config locks with different policies. Counts how often bodies really run. */
public class Jobs {
    static final AtomicInteger BODY_RUNS = new AtomicInteger();
    final CountDownLatch holding = new CountDownLatch(1);

    public void hold(String key, long millis) throws InterruptedException {
        System.out.println("HOLDING " + key);
        holding.countDown();
        Thread.sleep(millis);
    }

    public int report(String key) {
        BODY_RUNS.incrementAndGet();
        return 42;
    }

    public boolean flag(String key) {
        BODY_RUNS.incrementAndGet();
        return true;
    }

    public static String label(String key) {
        BODY_RUNS.incrementAndGet();
        return "ran";
    }

    public void charge(String key) {
        BODY_RUNS.incrementAndGet();
    }

    public String named(String jobKey) {
        BODY_RUNS.incrementAndGet();
        return "ran";
    }

    public String misnamed(String key) {
        return "ran";
    }

    public int fails(String key) {
        throw new IllegalStateException("body failed for " + key);
    }
}
