package dev.lockwarden.admin.ui;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.time.Duration;

/**
 * A separate JVM holding one auto-refreshed lock: prints {@code HELD <fence>}, then {@code LOST <fence>}
 * when its onLost fires, then exits. Args: Redis URI, lock name.
 */
public final class HolderMain {
    private HolderMain() {}

    public static void main(String[] args) throws Exception {
        try (LockManager locks = LockManager.builder()
                .redis(args[0])
                .application("remote-worker")
                .build()) {
            LockHandle h = locks.acquire(
                    args[1], LockOptions.ttl(Duration.ofSeconds(3)).autoRefresh(true));
            Object done = new Object();
            h.onLost(e -> {
                System.out.println("LOST " + e.fencingToken() + " " + e.reason());
                System.out.flush();
                synchronized (done) {
                    done.notifyAll();
                }
            });
            System.out.println("HELD " + h.fencingToken());
            System.out.flush();
            synchronized (done) {
                done.wait(120_000);
            }
        }
    }
}
