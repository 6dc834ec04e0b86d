package dev.lockwarden.store;

import java.util.Arrays;

/**
 * What a refresh of many leases learned about each one: confirmed still ours, confirmed gone, or not
 * confirmed at all (its node failed; the lease is in the same doubt as after a failed batch). On Redis
 * Cluster each node answers for its own leases, so one failed node leaves the others confirmed.
 */
public final class Refreshed {
    private final boolean[] ours;
    /** Per lease, why it was not confirmed; null = confirmed. */
    private final String[] failures;

    Refreshed(boolean[] ours, String[] failures) {
        this.ours = ours;
        this.failures = failures;
    }

    /** Every lease confirmed: {@code ours[i]} says whether lease i is still held. */
    public static Refreshed confirmed(boolean[] ours) {
        return new Refreshed(ours, new String[ours.length]);
    }

    /** True if Redis answered for lease {@code i} (still ours or gone). */
    public boolean confirmed(int i) {
        return failures[i] == null;
    }

    /** True if lease {@code i} was confirmed still ours. */
    public boolean ours(int i) {
        return failures[i] == null && ours[i];
    }

    /** Why lease {@code i} was not confirmed, or null if it was. */
    public String failure(int i) {
        return failures[i];
    }

    /** The leases whose refresh was not confirmed. */
    public long unconfirmed() {
        return Arrays.stream(failures).filter(f -> f != null).count();
    }

    @Override
    public String toString() {
        return "Refreshed[" + ours.length + " lease(s), " + unconfirmed() + " unconfirmed]";
    }
}
