package dev.lockwarden.internal;

import dev.lockwarden.metrics.MetricsConfig;
import dev.lockwarden.store.ReplicaAcks;

/**
 * What a {@link LockEngine} is configured with (resolved and checked by {@code LockManager.Builder}).
 *
 * @param reentrant              whether a thread holding a lock gets a nested handle instead of waiting for itself
 * @param application            the application's name, for holders, events and metrics
 * @param eventsMaxLen           approximate cap of the events stream
 * @param recordCycles           whether every release appends its cycle to the lock's own history
 * @param historyRetentionMillis how long a lock's history outlives its last entry
 * @param metrics                which metrics are kept
 * @param replicaAcks            the replica acknowledgement of locks whose options do not set one
 */
public record EngineSettings(
        boolean reentrant,
        String application,
        long eventsMaxLen,
        boolean recordCycles,
        long historyRetentionMillis,
        MetricsConfig metrics,
        ReplicaAcks replicaAcks) {}
