package dev.lockwarden.internal;

import java.util.Objects;
import java.util.function.Function;

import dev.lockwarden.LockManager;

/**
 * The one way from a {@link LockManager} to its engine, for lock-core's SPI ({@code dev.lockwarden.spi})
 * and lock-core's own tests; {@code LockManager} has no public accessor for it. {@code LockManager}
 * installs the accessor when its class initialises (the pattern of the JDK's shared secrets).
 */
public final class ManagerAccess {
    private static volatile Function<LockManager, LockEngine> engines;

    private ManagerAccess() {
    }

    /** Called once, by {@code LockManager}'s static initialiser. */
    public static void install(Function<LockManager, LockEngine> accessor) {
        if (engines != null) {
            throw new IllegalStateException("the LockManager accessor is installed already");
        }
        engines = Objects.requireNonNull(accessor);
    }

    /** The engine behind {@code locks} (an instance exists, so its class initialised and installed the accessor). */
    public static LockEngine engine(LockManager locks) {
        return engines.apply(Objects.requireNonNull(locks, "locks"));
    }
}
