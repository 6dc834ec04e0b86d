package dev.lockwarden.agent.bootstrap;

/**
 * The only class instrumented code calls. It is injected into the bootstrap class loader so that
 * advice inlined into any application class (whatever its class loader) can reach it; it uses JDK
 * types only. The agent's {@link Dispatcher}, loaded from the agent jar, does the real work.
 */
public final class LockBridge {
    private static volatile Dispatcher dispatcher;

    private LockBridge() {}

    /** What the agent runtime implements; called around every lock-wrapped method. */
    public interface Dispatcher {
        /**
         * Takes the lock of binding {@code id} for this call.
         *
         * @return a state object passed to {@link #exit}: a lock handle, or a {@link Skip} to skip the body
         */
        Object enter(int id, Object[] args);

        /** Releases what {@link #enter} took; returns the throwable the method throws (or {@code null}). */
        Throwable exit(Object state, Throwable thrown);
    }

    /** Returned by {@link #enter} when the method body must not run; {@link #failure} is thrown to the caller if set. */
    public static final class Skip {
        /** Skip quietly: the method returns {@code null}, {@code 0} or {@code false}. */
        public static final Skip QUIETLY = new Skip(null);
        /** Thrown into the caller instead of running the body, or {@code null}. */
        public final Throwable failure;

        public Skip(Throwable failure) {
            this.failure = failure;
        }
    }

    /** Sets the dispatcher once; false if one is already installed (double attach). */
    public static synchronized boolean install(Dispatcher d) {
        if (dispatcher != null) {
            return false;
        }
        dispatcher = d;
        return true;
    }

    /** Removes {@code d} if it is the installed dispatcher (an installation that failed half way). */
    public static synchronized void uninstall(Dispatcher d) {
        if (dispatcher == d) {
            dispatcher = null;
        }
    }

    /**
     * Replaces {@code d}, if it is the installed dispatcher, by {@code failed} for good: an installation that failed
     * after classes may have been woven against {@code d}. Their calls reach {@code failed} (which fails them), and no
     * later {@link #install} is accepted: the binding ids woven into them must never index another dispatcher's.
     */
    public static synchronized void replaceForGood(Dispatcher d, Dispatcher failed) {
        if (dispatcher == d) {
            dispatcher = failed;
        }
    }

    /** Whether a dispatcher is installed. */
    public static boolean installed() {
        return dispatcher != null;
    }

    /** Called on method entry by the inlined advice; without a dispatcher the call fails (never runs unlocked). */
    public static Object enter(int id, Object[] args) {
        Dispatcher d = dispatcher;
        return d != null
                ? d.enter(id, args)
                : new Skip(
                        new IllegalStateException(
                                "lockwarden-agent: this method is lock-wrapped but no agent runtime is installed; it does not run unlocked"));
    }

    /** Called on method exit by the inlined advice. */
    public static Throwable exit(Object state, Throwable thrown) {
        if (state instanceof Skip skip) {
            return skip.failure != null ? skip.failure : thrown;
        }
        Dispatcher d = dispatcher;
        return d == null || state == null ? thrown : d.exit(state, thrown);
    }
}
