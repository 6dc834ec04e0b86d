package dev.lockwarden.store;

/**
 * One Redis node did not answer in time ({@link #node()} says which): it may be slow, paused or this
 * JVM stalled, rather than down. A waiting acquire retries it within its wait budget; a non-blocking
 * one reports it at once. Still a store error, never "busy".
 */
public final class NodeTimeoutException extends NodeException {
    private static final long serialVersionUID = 1L;

    public NodeTimeoutException(String node, String message) {
        super(node, message);
    }

    public NodeTimeoutException(String node, String message, Throwable cause) {
        super(node, message, cause);
    }
}
