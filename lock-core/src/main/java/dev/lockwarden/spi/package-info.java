/**
 * What lock-core's shells (the {@code @Locked} interceptor, the agent, the dashboard) need beyond
 * the public API, and nothing more: exported by lock-core's module so they never reach into
 * {@code internal}, {@code store} or {@code inspect}. Users of Lockwarden need
 * none of it; it may change with any release.
 */
package dev.lockwarden.spi;
