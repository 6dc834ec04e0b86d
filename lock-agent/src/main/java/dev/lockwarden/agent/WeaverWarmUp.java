package dev.lockwarden.agent;

/**
 * Loads and initialises the weaving code (Byte Buddy's type pool and advice, some 500 classes) on a daemon thread
 * started at the beginning of {@code premain}, while the agent reads its config and the JVM goes on to the
 * application's {@code main}: the first lock-wrapped class then finds the weaver ready instead of waiting for it
 * (on a machine with a free core). It weaves {@link Sample}'s class file and discards the result; nothing is
 * defined, no lock is registered, and a failure here changes nothing (the real weave, if it fails the same way, makes
 * its class fail closed). A class, not a lambda: no {@code java.lang.invoke} set-up before {@code main}.
 */
final class WeaverWarmUp implements Runnable {
    private WeaverWarmUp() {}

    /** Starts the warm-up thread. */
    static void start() {
        try {
            Thread t = new Thread(new WeaverWarmUp(), "lockwarden-agent-warm-up");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        } catch (RuntimeException | Error e) {
            // only an optimisation
        }
    }

    @Override
    public void run() {
        try {
            String name = Sample.class.getName();
            byte[] bytes = TypePools.read(WeaverWarmUp.class.getClassLoader(), name);
            if (bytes != null) {
                ClassWeaver.warmUp(name, bytes, "value");
            }
        } catch (Throwable e) { // NOPMD only an optimisation: the real weave reports its own failures
            // nothing to do
        }
    }

    /** The class woven for the warm-up (never loaded: only its class file is read). */
    static final class Sample {
        private Sample() {}

        static String value(String s) {
            return s;
        }
    }
}
