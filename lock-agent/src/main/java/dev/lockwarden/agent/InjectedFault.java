package dev.lockwarden.agent;

/**
 * Test-only failure injection: {@code -Dlockwarden.agent.testFault=point:com.acme.Class[,point:Class...]} makes the
 * agent throw at that point of handling that class, so tests can prove that every internal failure ends with the
 * class failing closed (points: {@code read}, {@code plan}, {@code bind}, {@code weave}, {@code module},
 * {@code closed}, {@code retransform}). Unset, which it always is outside tests, it costs one null check per
 * candidate class.
 */
final class InjectedFault {
    private static final String SPEC = System.getProperty("lockwarden.agent.testFault");

    private InjectedFault() {}

    /** Throws when the property names this point for this (binary) class name. */
    static void at(String point, String className) {
        if (SPEC != null && ("," + SPEC + ",").contains("," + point + ":" + className + ",")) {
            throw new IllegalStateException("injected fault at " + point + " for " + className);
        }
    }
}
