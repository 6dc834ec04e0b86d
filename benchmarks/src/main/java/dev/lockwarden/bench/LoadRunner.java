package dev.lockwarden.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one operation on N threads until a deadline or a per-thread count, whichever comes first,
 * and records the latency of every successful operation (nanoseconds) in an HdrHistogram.
 */
final class LoadRunner {
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long MAX_ERRORS = 1_000;

    /** One operation; returns whether it succeeded (e.g. acquired). */
    interface Op {
        boolean run(int thread, long i) throws Exception;
    }

    /**
     * @param attempts   operations run
     * @param successes  operations that succeeded
     * @param nanos      wall time from start to the last thread's end
     * @param latency    latency of successful operations, ns
     * @param perThread  successes per thread
     * @param errors     operations that threw
     * @param firstError the first exception's message, or null
     */
    record Result(
            long attempts,
            long successes,
            long nanos,
            Histogram latency,
            long[] perThread,
            long errors,
            String firstError) {
        double successesPerSecond() {
            return nanos == 0 ? 0 : successes * 1e9 / nanos;
        }

        double attemptsPerSecond() {
            return nanos == 0 ? 0 : attempts * 1e9 / nanos;
        }

        double micros(double percentile) {
            return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
        }

        Result plus(Result o) {
            if (o == null) {
                return this;
            }
            Histogram h = latency.copy();
            h.add(o.latency);
            long[] pt = perThread.clone();
            for (int i = 0; i < pt.length && i < o.perThread.length; i++) {
                pt[i] += o.perThread[i];
            }
            return new Result(
                    attempts + o.attempts,
                    successes + o.successes,
                    nanos + o.nanos,
                    h,
                    pt,
                    errors + o.errors,
                    firstError != null ? firstError : o.firstError);
        }
    }

    private LoadRunner() {}

    static Result run(String label, int threads, Duration duration, long maxOpsPerThread, Op op)
            throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong attempts = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        long[] perThread = new long[threads];
        Histogram[] hists = new Histogram[threads];
        long[] deadline = new long[1];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            hists[t] = new Histogram(MAX_NANOS, 3);
            Thread w = new Thread(
                    () -> {
                        try {
                            start.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        long end = deadline[0];
                        long n = 0;
                        Histogram h = hists[id];
                        for (long i = 0;
                                i < maxOpsPerThread && System.nanoTime() - end < 0 && errors.get() < MAX_ERRORS;
                                i++) {
                            n++;
                            long t0 = System.nanoTime();
                            try {
                                if (op.run(id, i)) {
                                    h.recordValue(Math.min(MAX_NANOS, System.nanoTime() - t0));
                                    perThread[id]++;
                                }
                            } catch (Exception | Error e) {
                                errors.incrementAndGet();
                                firstError.compareAndSet(null, e.toString());
                            }
                        }
                        attempts.addAndGet(n);
                    },
                    "bench-" + label + "-" + t);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
        long t0 = System.nanoTime();
        deadline[0] = t0 + duration.toNanos();
        start.countDown();
        long joinBy = deadline[0] + TimeUnit.SECONDS.toNanos(30);
        for (Thread w : workers) {
            long left = joinBy - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(w, left);
            }
            if (w.isAlive()) {
                w.interrupt(); // stuck past the deadline: give up on it
                firstError.compareAndSet(null, "a worker was still running 30 s after the deadline");
            }
        }
        long nanos = System.nanoTime() - t0;
        Histogram all = new Histogram(MAX_NANOS, 3);
        long successes = 0;
        for (int t = 0; t < threads; t++) {
            all.add(hists[t]);
            successes += perThread[t];
        }
        return new Result(attempts.get(), successes, nanos, all, perThread, errors.get(), firstError.get());
    }
}
