package dev.lockwarden.cdi;

import dev.lockwarden.LockManager;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The default {@link LockManager}: {@code LockManager.builder().build()}, which reads
 * {@code lockwarden.*} system properties, then {@code LOCKWARDEN_*} environment variables, then
 * defaults ({@code redis://localhost:6379}). Created on first use, closed at container shutdown.
 *
 * <p>{@code @Singleton}, not {@code @ApplicationScoped}: {@code LockManager} is final and cannot be
 * proxied. Replace it with an alternative producer:
 *
 * <pre>{@code
 * @Produces @Alternative @Priority(1) @Singleton
 * LockManager locks() { return LockManager.builder().redis("redis://redis.internal:6379").application("billing").build(); }
 * void close(@Disposes LockManager locks) { locks.close(); }
 * }</pre>
 */
@Dependent
public class LockManagerProducer {

    @Produces
    @Singleton
    LockManager lockManager() {
        return LockManager.builder().build();
    }

    void close(@Disposes LockManager locks) {
        locks.close();
    }
}
