package dev.lockwarden.store;

/**
 * What a call does, for error messages: rendered only when one is written, so the hot path builds no
 * description string per call.
 */
record CallDescription(String verb, String name) {
    @Override
    public String toString() {
        return verb + " '" + name + "'";
    }
}
