package dev.lockwarden.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.lockwarden.store.KeySpace;

/**
 * Tells a holder at once that its lock was force-released: while a handle is held, this JVM listens on
 * its lock's force-released channel (on the pub/sub connection of the {@link WakeupBus}), and a message
 * there marks the handle lost (its listeners fire, {@code checkHeld()} throws) instead of at the next
 * refresh. A message sent before the subscription was confirmed is not heard: the next refresh still
 * finds the token gone, as without this signal.
 */
final class LossSignals {
    private static final String PREFIX = "force-released ";

    private final KeySpace keys;
    private final Consumer<Runnable> dispatch;
    private final Function<DefaultLockHandle, String> why;
    private final Map<String, DefaultLockHandle> held = new ConcurrentHashMap<>();
    /** Orders each channel's map change with its (UN)SUBSCRIBE; never a monitor (virtual threads). */
    private final ReentrantLock changing = new ReentrantLock();
    private WakeupBus bus;

    /**
     * @param dispatch runs the loss off the pub/sub thread
     * @param why      the reason a force-released handle was lost (read from the force-release's marker)
     */
    LossSignals(KeySpace keys, Consumer<Runnable> dispatch, Function<DefaultLockHandle, String> why) {
        this.keys = keys;
        this.dispatch = dispatch;
        this.why = why;
    }

    /** The bus to listen on (it delivers the messages to {@link #message}). */
    void listenOn(WakeupBus bus) {
        this.bus = bus;
    }

    void watch(DefaultLockHandle h) {
        String channel = keys.forceReleasedChannel(h.name());
        changing.lock();
        try {
            if (held.put(channel, h) == null) {
                bus.listen(channel);
            }
        } finally {
            changing.unlock();
        }
    }

    void unwatch(DefaultLockHandle h) {
        String channel = keys.forceReleasedChannel(h.name());
        changing.lock();
        try {
            if (held.remove(channel, h)) {
                bus.unlisten(channel);
            }
        } finally {
            changing.unlock();
        }
    }

    /**
     * A message on a held lock's channel: {@code force-released <new fence>}. A handle whose fence is above
     * that counter was taken after the force-release (the message was late) and stays held.
     */
    void message(String channel, String message) {
        DefaultLockHandle h = held.get(channel);
        if (h == null || !message.startsWith(PREFIX)) {
            return;
        }
        long newFence;
        try {
            newFence = Long.parseLong(message.substring(PREFIX.length()).trim());
        } catch (NumberFormatException e) {
            newFence = Long.MAX_VALUE; // a counter we cannot read: the release is still certain
        }
        if (h.fencingToken() <= newFence) {
            dispatch.accept(() -> h.markLost(why.apply(h)));
        }
    }
}
