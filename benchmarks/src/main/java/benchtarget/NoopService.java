package benchtarget;

/**
 * The method the agent benchmark wraps: it does nothing, so a call measures the lock cycle plus
 * whatever the agent adds. Outside {@code dev.lockwarden} because the agent refuses to instrument
 * Lockwarden's own classes.
 */
public final class NoopService {
    /** Null in the measured loops; set once to check that the agent really holds the lock inside the call. */
    public static volatile Runnable probe;

    private NoopService() {}

    /** The same no-op, not named by any rule: what the direct loop runs inside its own lock. */
    public static void plain(String key) {
        Runnable p = probe;
        if (p != null) {
            p.run();
        }
    }

    /** Wrapped by the rule {@code benchtarget.NoopService#noop(java.lang.String) key="agentbench:{0}"}. */
    public static void noop(String key) {
        Runnable p = probe;
        if (p != null) {
            p.run();
        }
    }
}
