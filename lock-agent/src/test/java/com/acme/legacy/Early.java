package com.acme.legacy;

/** Loaded by another agent before the Lockwarden agent starts: it must be retransformed. */
public class Early {
    public static void work() {
        LockProbe.print("Early.work", "early");
    }
}
