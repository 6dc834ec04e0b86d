/**
 * Lockwarden's public API: {@link dev.lockwarden.LockManager} (and its builder), {@link dev.lockwarden.LockHandle},
 * {@link dev.lockwarden.LockOptions}, {@link dev.lockwarden.LockInspector} with its value types, and the
 * exceptions, all extending {@link dev.lockwarden.LockException}.
 * <p>
 * This package is also the <em>composition root</em>: {@code LockManager.Builder.build()} is the one
 * place that creates the machinery (the Redis deployment and store from {@code store}, the engine from
 * {@code internal}, the inspector from {@code inspect}, the counters from {@code metrics}) and wires it
 * together. So the dependency between this package and the machinery goes both ways: the machinery
 * uses the API's types (it throws {@code LockStoreException}, hands out {@code LockHandle}s, fills
 * {@code LockInfo}), and the builder names the machinery's classes. That is on purpose, as in Lettuce
 * ({@code io.lettuce.core.RedisClient} builds its {@code protocol} package, which uses
 * {@code io.lettuce.core.ClientOptions}): moving the wiring to a package of its own would only move
 * the same edges (the API's {@code build()} must reach it) or hide them behind a service lookup. What
 * keeps this manageable is checked by {@code PackageCycleTest}: the machinery packages form no cycle
 * among themselves, and in this package only {@code LockManager} names them; no type of theirs appears
 * in a public signature here (they are not exported by the module).
 */
package dev.lockwarden;
