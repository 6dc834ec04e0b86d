package dev.lockwarden.metrics;

import java.util.Map;

/**
 * JMX view of one {@code LockManager}'s counters, registered as
 * {@code dev.lockwarden:type=LockManager,application=<app>,id=<jvm id>}.
 */
public interface LockMetricsMXBean {
    /** {@return the counters per lock-name group (name up to the first ':')} */
    Map<String, LockStats> getByGroup();

    /** {@return the counters over all locks} */
    LockStats getTotal();

    /** {@return the pipelined refresh round trips the watchdog has sent (each renews every lock due then)} */
    long getWatchdogBatches();
}
