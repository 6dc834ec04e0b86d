package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;

/** One Redis node failed a call; {@link #node()} says which (its address, never its password). */
public class NodeException extends LockStoreException {
    private static final long serialVersionUID = 1L;
    private final String node;

    public NodeException(String node, String message) {
        super(message);
        this.node = node;
    }

    public NodeException(String node, String message, Throwable cause) {
        super(message, cause);
        this.node = node;
    }

    /** Address of the node that failed, e.g. {@code redis://127.0.0.1:6379}. */
    public String node() {
        return node;
    }
}
