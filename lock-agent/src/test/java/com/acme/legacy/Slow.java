package com.acme.legacy;

/** Runs longer than its lock's TTL (no refresh): the lock is lost while the method runs. */
public class Slow {
    public String logged(String id) throws InterruptedException {
        Thread.sleep(1500);
        return "logged-done";
    }

    public String thrown(String id) throws InterruptedException {
        Thread.sleep(1500);
        return "thrown-done";
    }
}
