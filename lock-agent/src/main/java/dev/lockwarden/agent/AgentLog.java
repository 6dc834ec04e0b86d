package dev.lockwarden.agent;

import java.lang.System.Logger.Level;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The agent's only log: {@link System.Logger} named {@code dev.lockwarden.agent}, so the host's logging (JUL by
 * default, or whatever {@code System.LoggerFinder} it installs) decides where it goes. Every line starts with
 * {@code lockwarden-agent:} so it can be found in any log.
 *
 * <p>INFO lines (the start-up report) are handed, in order, to one daemon thread: setting up java.util.logging (its
 * configuration, handlers, the formatter's time zone and locale data) took ~100 ms of {@code premain}, in front of
 * {@code main}. WARNING and ERROR lines — a stop before {@code main}, running without locks, a method whose calls
 * fail — and shutdown lines are written at once, after whatever is queued, so nothing is reordered. Lines logged
 * once the JVM is shutting down go to stderr too (JUL may be reset by then). Bounded: at most
 * {@value #MAX_QUEUED} queued lines (beyond that a line is written at once), a flush waits at most
 * {@value #FLUSH_MILLIS} ms.
 */
final class AgentLog {
    static final String PREFIX = "lockwarden-agent: ";
    private static final int MAX_QUEUED = 10_000;
    private static final long FLUSH_MILLIS = 2_000;
    private static final BlockingQueue<Runnable> QUEUE = new LinkedBlockingQueue<>(MAX_QUEUED);
    private static Thread writer;
    private static volatile boolean shuttingDown;

    private AgentLog() {}

    /** The logger, looked up where it is used, so that the look-up (which starts JUL) happens on the writer thread. */
    private static final class Holder {
        static final System.Logger LOG = System.getLogger("dev.lockwarden.agent");
    }

    static void info(String message) {
        later(Level.INFO, message);
    }

    static void warn(String message) {
        flush();
        log(Level.WARNING, message);
    }

    static void error(String message) {
        flush();
        log(Level.ERROR, message);
    }

    /**
     * During JVM shutdown java.util.logging resets itself in its own shutdown hook, concurrently with ours, so a
     * record may be dropped: shutdown lines go to the logger and to stderr.
     */
    static void atShutdown(Level level, String message) {
        shutdown();
        Holder.LOG.log(level, PREFIX + message);
        System.err.println(PREFIX + level + ": " + message);
    }

    /** From the shutdown hook: what is still queued is written now, to the logger and to stderr. */
    static void shutdown() {
        shuttingDown = true;
        flush();
    }

    /** Writes what is queued (from any thread but the writer), waiting at most {@value #FLUSH_MILLIS} ms. */
    static void flush() {
        if (Thread.currentThread() == writer) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        if (!QUEUE.offer(new Runnable() {
            @Override
            public void run() {
                done.countDown();
            }
        })) {
            return;
        }
        ensureWriter();
        try {
            done.await(FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void later(Level level, String message) {
        // anonymous classes, not lambdas, here and below: the first lines are queued in premain, where a first
        // lambda costs start-up time
        if (!QUEUE.offer(new Runnable() {
            @Override
            public void run() {
                log(level, message);
            }
        })) {
            log(level, message);
            return;
        }
        ensureWriter();
    }

    /**
     * One line (a named method: JUL's formatter shows it as the source of the record). Asked after the line is
     * logged: once the JVM has begun shutting down, java.util.logging's own hook may already have reset its handlers
     * (the hooks run in no set order, so it can be before ours), so the line goes to stderr too; a line logged
     * before the shutdown began was written by the logger.
     */
    private static void log(Level level, String message) {
        Holder.LOG.log(level, PREFIX + message);
        if (shuttingDown || jvmShuttingDown()) {
            System.err.println(PREFIX + level + ": " + message);
        }
    }

    private static final Thread PROBE = new Thread(
            new Runnable() { // never started; not a lambda: used in premain
                @Override
                public void run() {}
            },
            "lockwarden-agent-shutdown-probe");

    /** Whether the JVM runs its shutdown hooks: from then on a hook can no longer be registered. */
    private static synchronized boolean jvmShuttingDown() {
        try {
            Runtime.getRuntime().addShutdownHook(PROBE);
        } catch (IllegalStateException e) {
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(PROBE);
        return false;
    }

    private static synchronized void ensureWriter() {
        if (writer == null) {
            Thread t = new Thread(
                    new Runnable() {
                        @Override
                        public void run() {
                            write();
                        }
                    },
                    "lockwarden-agent-log");
            t.setDaemon(true);
            writer = t;
            t.start();
        }
    }

    private static void write() {
        while (true) {
            try {
                QUEUE.take().run();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException | LinkageError e) {
                System.err.println(PREFIX + "could not log: " + e);
            }
        }
    }
}
