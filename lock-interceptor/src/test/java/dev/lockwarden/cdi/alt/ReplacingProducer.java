package dev.lockwarden.cdi.alt;

import dev.lockwarden.LockManager;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicInteger;

/** An application's own LockManager, replacing the default producer. */
@Dependent
public class ReplacingProducer {
    /** Set by the test before the first call. */
    public static volatile String redisUri;

    public static final AtomicInteger CLOSED = new AtomicInteger();

    @Produces
    @Alternative
    @Priority(10)
    @Singleton
    LockManager locks() {
        return LockManager.builder().redis(redisUri).application("replaced-app").build();
    }

    void close(@Disposes LockManager locks) {
        CLOSED.incrementAndGet();
        locks.close();
    }
}
