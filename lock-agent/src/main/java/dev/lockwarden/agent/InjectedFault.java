package dev.lockwarden.agent;

/**
 * Test-only failure injection: {@code -Dlockwarden.agent.testFault=point:com.acme.Class[:Kind][,point:Class...]}
 * makes the agent throw at that point of handling that class, so tests can prove that every internal failure ends
 * with the class failing closed (points: {@code read}, {@code plan}, {@code bind}, {@code weave}, {@code module},
 * {@code closed}, {@code retransform}) or with the start refused: {@code preflight} (the pre-check before
 * {@code main} reading and planning a class a rule names exactly), and, with an empty class name ({@code install:}),
 * {@code install} (before the transformer is added) and {@code install-end} (after it was added and the loaded
 * classes were retransformed: the start fails part-way). The thrown kind is an {@link IllegalStateException} unless {@code Kind} names
 * another: {@code StackOverflowError}, {@code OutOfMemoryError}, {@code AssertionError} or {@code Exception} (a
 * checked exception, thrown unchecked). Unset, which it always is outside tests, it costs one null check per
 * candidate class. Parsed by hand (no regular expression: it runs in {@code premain}).
 */
final class InjectedFault {
    private static final String SPEC = System.getProperty("lockwarden.agent.testFault");

    private InjectedFault() {}

    /** Throws when the property names this point for this (binary) class name. */
    static void at(String point, String className) {
        if (SPEC == null) {
            return;
        }
        String wanted = point + ":" + className;
        int start = 0;
        while (start <= SPEC.length()) {
            int end = SPEC.indexOf(',', start);
            String entry = SPEC.substring(start, end < 0 ? SPEC.length() : end);
            if (entry.equals(wanted)) {
                throw new IllegalStateException(message(point, className));
            }
            if (entry.startsWith(wanted + ":")) {
                throwKind(entry.substring(wanted.length() + 1), message(point, className));
            }
            if (end < 0) {
                return;
            }
            start = end + 1;
        }
    }

    private static String message(String point, String className) {
        return "injected fault at " + point + " for " + className;
    }

    private static void throwKind(String kind, String message) {
        switch (kind) {
            case "StackOverflowError" -> throw new StackOverflowError(message);
            case "OutOfMemoryError" -> throw new OutOfMemoryError(message);
            case "AssertionError" -> throw new AssertionError(message);
            case "Exception" -> InjectedFault.<RuntimeException>sneaky(new Exception(message));
            default -> throw new IllegalArgumentException("unknown injected fault kind " + kind);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
