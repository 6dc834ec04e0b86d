package dev.lockwarden.store;

/**
 * A lock this JVM holds, as the store needs it for refresh and release.
 *
 * @param name     lock name
 * @param token    the owner's random token
 * @param ttlMillis TTL to set on refresh
 */
public record Lease(String name, String token, long ttlMillis) {}
