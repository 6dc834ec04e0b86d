package com.acme.legacy;

/** A legacy method a rule locks; prints when its body runs, so a test sees whether it ran. */
public final class Guarded {
    private Guarded() {}

    public static String pay(String id) {
        System.out.println("BODY RAN " + id);
        return "paid " + id;
    }

    public static String hold(String id, long millis) throws InterruptedException {
        System.out.println("HOLDING " + id);
        Thread.sleep(millis);
        System.out.println("SLEPT FULL " + id);
        return "held " + id;
    }
}
