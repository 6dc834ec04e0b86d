package dev.lockwarden.internal;

import java.util.concurrent.TimeUnit;

/** A waiter's place in a channel's queue ({@link WakeupBus#join}). */
public final class Ticket implements AutoCloseable {
    private final WakeupBus bus;
    final ReleaseQueue queue;
    final ReleaseQueue.Place place;

    Ticket(WakeupBus bus, ReleaseQueue queue, ReleaseQueue.Place place) {
        this.bus = bus;
        this.queue = queue;
        this.place = place;
    }

    /** Waits until the subscription is confirmed by Redis (so no release can be missed), at most {@code millis}. */
    public boolean awaitSubscribed(long millis) throws InterruptedException {
        return queue.confirmed.await(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * True if Redis confirmed this channel's subscription on the live connection, so a release
     * from now on wakes this waiter; false while connecting or reconnecting.
     */
    public boolean listening() {
        return queue.listening;
    }

    /** Forgets a wake-up received before the next attempt; call right before each attempt. */
    public void reset() {
        queue.reset(place);
    }

    /** Waits for a release message or the timeout; true if woken by a message. */
    public boolean await(long millis) throws InterruptedException {
        return queue.await(place, millis);
    }

    /** Leaves the queue (passing on an unused wake-up). */
    @Override
    public void close() {
        bus.leave(this);
    }
}
