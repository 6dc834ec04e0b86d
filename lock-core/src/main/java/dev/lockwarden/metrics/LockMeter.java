package dev.lockwarden.metrics;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one group and source. The engine resolves it once per acquisition and keeps it
 * with the handle, so the hot path does one adder increment per event and no map lookup.
 */
public final class LockMeter {
    /** Records a duration elsewhere too (a Micrometer timer). */
    interface DurationSink {
        void record(long nanos);
    }

    private final String group;
    private final String source;
    private final LongAdder[] events = new LongAdder[LockMetrics.Event.values().length];
    private final LongAdder waitMillis = new LongAdder();
    private final LongAdder holdMillis = new LongAdder();
    private final LongAdder held = new LongAdder();
    private DurationSink waitTimer = nanos -> {};
    private DurationSink holdTimer = nanos -> {};

    LockMeter(String group, String source) {
        this.group = group;
        this.source = source;
        for (int i = 0; i < events.length; i++) {
            events[i] = new LongAdder();
        }
    }

    /**
     * Counts one event.
     *
     * @param e what happened
     */
    public void count(LockMetrics.Event e) {
        events[e.ordinal()].increment();
    }

    /**
     * An acquire call (any outcome) took {@code nanos}.
     *
     * @param nanos how long it took
     */
    public void waited(long nanos) {
        waitMillis.add(TimeUnit.NANOSECONDS.toMillis(nanos));
        waitTimer.record(nanos);
    }

    /** A call got the lock: counted, and one more held now. */
    public void acquired() {
        events[LockMetrics.Event.ACQUIRED.ordinal()].increment();
        held.increment();
    }

    /**
     * A held lock ended (released or lost) after {@code heldMillis}.
     *
     * @param heldMillis how long it was held
     */
    public void ended(long heldMillis) {
        held.decrement();
        holdMillis.add(heldMillis);
        holdTimer.record(TimeUnit.MILLISECONDS.toNanos(heldMillis));
    }

    /** {@return the lock-name group (the name up to the first ':', or {@value LockMetrics#OTHER})} */
    public String group() {
        return group;
    }

    /** {@return {@code api}, {@code cdi}, {@code agent} or {@code unknown}} */
    public String source() {
        return source;
    }

    long get(LockMetrics.Event e) {
        return events[e.ordinal()].sum();
    }

    long heldNow() {
        return held.sum();
    }

    void timers(DurationSink wait, DurationSink hold) {
        this.waitTimer = wait;
        this.holdTimer = hold;
    }

    long[] values() {
        return new long[] {
            get(LockMetrics.Event.ATTEMPT),
            get(LockMetrics.Event.ACQUIRED),
            get(LockMetrics.Event.BUSY),
            get(LockMetrics.Event.STORE_ERROR),
            waitMillis.sum(),
            holdMillis.sum(),
            held.sum(),
            get(LockMetrics.Event.REFRESH),
            get(LockMetrics.Event.REFRESH_FAILURE),
            get(LockMetrics.Event.LOST),
            get(LockMetrics.Event.FORCE_RELEASED)
        };
    }
}
