package dev.lockwarden.internal;

/**
 * One release's local wake-up ({@link WakeupBus#handOver}), given at most once ahead of its release message.
 */
final class HandOver {
    static final HandOver NONE = new HandOver(null, 0);
    private final ReleaseQueue queue;
    private final long mark;
    private boolean given;

    HandOver(ReleaseQueue queue, long mark) {
        this.queue = queue;
        this.mark = mark;
    }

    /** Wakes the longest local waiter, unless the release's own message came back first and did. */
    void give() {
        if (queue != null && !given) {
            given = queue.handOver(mark);
        }
    }

    /** The release was not ours after all (or failed): the next release message wakes a waiter again. */
    void retract() {
        if (given) {
            given = false;
            queue.retractHandOver();
        }
    }
}
