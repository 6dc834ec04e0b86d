package dev.lockwarden.internal;

import dev.lockwarden.LockLostEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The {@code onLost} listeners of one handle: each fires at most once, on the manager's listener
 * executor, and a listener that throws is logged, never passed on. The list is created by the first
 * registration (most handles never get a listener: one allocation less per acquire).
 */
final class LostListeners {
    private final String lockName;
    private volatile List<Listener> listeners;

    LostListeners(String lockName) {
        this.lockName = lockName;
    }

    /** Adds one; call before reading whether the handle is lost already (see {@link #fireAll}). */
    Listener add(Consumer<LockLostEvent> consumer) {
        Listener l = new Listener(consumer);
        List<Listener> all = listeners;
        if (all == null) {
            synchronized (this) {
                if (listeners == null) {
                    listeners = new CopyOnWriteArrayList<>();
                }
                all = listeners;
            }
        }
        all.add(l);
        return l;
    }

    /** Fires every registered listener that has not fired yet. */
    void fireAll(LockLostEvent e) {
        List<Listener> all = listeners;
        if (all != null) {
            for (Listener l : all) {
                l.fire(e);
            }
        }
    }

    /** One registered listener, fired at most once. */
    final class Listener {
        private final Consumer<LockLostEvent> consumer;
        private final AtomicBoolean fired = new AtomicBoolean();

        Listener(Consumer<LockLostEvent> consumer) {
            this.consumer = consumer;
        }

        void fire(LockLostEvent e) {
            if (fired.compareAndSet(false, true)) {
                try {
                    consumer.accept(e);
                } catch (RuntimeException ex) {
                    System.getLogger(DefaultLockHandle.class.getName())
                            .log(System.Logger.Level.WARNING, "onLost listener of lock '" + lockName + "' threw", ex);
                }
            }
        }
    }
}
