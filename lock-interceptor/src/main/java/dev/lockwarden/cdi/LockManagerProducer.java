package dev.lockwarden.cdi;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.config.Settings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;

/**
 * The default {@link LockManager}, built from the {@code lockwarden.*} settings: MicroProfile
 * Config when it is on the class path, else system properties, then {@code LOCKWARDEN_*}
 * environment variables, then defaults ({@code redis://localhost:6379}). Created when the
 * application starts, closed at container shutdown.
 *
 * <p>A Redis that does not answer at start-up does not stop the deployment: a WARNING is logged,
 * {@code @Locked} calls throw {@link LockStoreException} until Redis answers, then work normally.
 * Invalid settings do fail the deployment.
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
    private static final System.Logger LOG = System.getLogger(LockManagerProducer.class.getName());

    @Produces
    @Singleton
    LockManager lockManager() {
        Settings settings = SettingsSource.discover();
        try {
            return LockManager.builder().settings(settings).build();
        } catch (LockStoreException down) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Lockwarden: Redis does not answer at start-up (" + down.getMessage()
                            + "). The application starts anyway; @Locked methods throw LockStoreException (and do not run)"
                            + " until Redis answers. Check lockwarden.redis / LOCKWARDEN_REDIS");
            return LockManager.builder().settings(settings).verifyOnBuild(false).build();
        }
    }

    /**
     * Builds the manager (whichever producer supplies it) at start-up: bad settings fail deployment, Redis down warns;
     * a {@code @Locked(replicaAcks)} the manager cannot serve fails deployment too.
     */
    void atStartUp(
            @Observes @Initialized(ApplicationScoped.class) Object started, LockManager locks, BeanManager beans) {
        beans.getExtension(LockedExtension.class).checkReplicaAcks(locks);
        LOG.log(System.Logger.Level.DEBUG, () -> "Lockwarden ready for application '" + locks.application() + "'");
    }

    void close(@Disposes LockManager locks) {
        locks.close();
    }
}
