package dev.lockwarden.internal;

/** Validates lock names before any Redis call, with messages that say what to change. */
public final class LockNames {
    /** Longest accepted name, in characters. */
    public static final int MAX_LENGTH = 512;

    private LockNames() {
    }

    public static String check(String name) {
        if (name == null) {
            throw new IllegalArgumentException("lock name is null: pass a name such as \"payment:TX-123\"");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("lock name is blank: pass a name such as \"payment:TX-123\"");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("lock name '" + name.substring(0, 40) + "...' is " + name.length()
                    + " characters long; the limit is " + MAX_LENGTH + ": hash long identifiers first");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '{' || c == '}') {
                throw new IllegalArgumentException("lock name '" + name + "' contains '" + c
                        + "': braces are reserved for Redis Cluster hash tags; use another character");
            }
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("lock name '" + name.replaceAll("\\p{Cntrl}", "?")
                        + "' contains a control character at position " + i + ": remove it");
            }
        }
        return name;
    }
}
