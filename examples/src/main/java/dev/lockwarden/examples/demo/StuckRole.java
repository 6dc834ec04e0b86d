package dev.lockwarden.examples.demo;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;

/**
 * Takes {@code import:partner-feed} and hangs while the watchdog keeps the lock alive: the stuck
 * job an operator force-releases on the dashboard. The worker reports the loss within a refresh
 * interval (TTL/3 = 2 s), abandons the import, and takes the lock again 20 s later.
 */
final class StuckRole implements Role {
    static final String LOCK = "import:partner-feed";
    private final LockManager locks;

    StuckRole(LockManager locks) {
        this.locks = locks;
    }

    @Override
    public void run(Console out) throws Exception {
        while (!Thread.currentThread().isInterrupted()) {
            try (LockHandle lock =
                    locks.acquire(LOCK, LockOptions.ttl(Duration.ofSeconds(6)).waitUpTo(Duration.ofSeconds(30)))) {
                lock.onLost(e -> out.say("stuck-job: LOST '" + e.lockName() + "' (fence " + e.fencingToken() + "): "
                        + e.reason() + " — abandoning the import"));
                out.say("stuck-job: holds '" + LOCK + "' (fence " + lock.fencingToken()
                        + ") and hangs; force-release it on the dashboard");
                while (lock.isHeld()) {
                    if (!Role.pause(200)) {
                        return;
                    }
                }
            }
            if (!Role.pause(20_000)) {
                return;
            }
        }
    }
}
