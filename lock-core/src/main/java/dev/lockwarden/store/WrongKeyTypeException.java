package dev.lockwarden.store;

/**
 * A key a script must write holds a value of another type (another program wrote it), found before anything
 * was written: the message names the key, its type and the fix.
 */
public final class WrongKeyTypeException extends NodeException {
    private static final long serialVersionUID = 1L;
    private final String key;

    WrongKeyTypeException(String node, String key, String message) {
        super(node, message);
        this.key = key;
    }

    /** The key of the wrong type, e.g. {@code lockwarden:audit}. */
    public String key() {
        return key;
    }
}
