package dev.lockwarden.store;

/** Validates lock names before any Redis call, with messages that say what to change. */
public final class LockNames {
    /** Longest accepted name, in UTF-8 bytes (as it is stored in Redis keys). */
    public static final int MAX_LENGTH = 512;

    private LockNames() {}

    public static String check(String name) {
        if (name == null) {
            throw new IllegalArgumentException("lock name is null: pass a name such as \"payment:TX-123\"");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("lock name is blank: pass a name such as \"payment:TX-123\"");
        }
        // cheap bound first: a 1 MiB string is rejected without encoding it
        // (a char is at most 3 UTF-8 bytes, a surrogate pair 4 for 2 chars: short names need no count)
        if (name.length() > MAX_LENGTH || (name.length() > MAX_LENGTH / 3 && utf8Length(name) > MAX_LENGTH)) {
            long bytes = name.length() > 4 * MAX_LENGTH ? name.length() : utf8Length(name);
            throw new IllegalArgumentException("lock name '"
                    + shown(name.substring(
                            0, name.offsetByCodePoints(0, Math.min(40, name.codePointCount(0, name.length())))))
                    + "...' is " + (name.length() > 4 * MAX_LENGTH ? "at least " : "") + bytes
                    + " bytes long (UTF-8); the limit is " + MAX_LENGTH + ": hash long identifiers first");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '{' || c == '}') {
                throw new IllegalArgumentException("lock name '" + name + "' contains '" + c
                        + "': braces are reserved for Redis Cluster hash tags; use another character");
            }
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("lock name '" + shown(name)
                        + "' contains a control character at position " + i + ": remove it");
            }
        }
        return name;
    }

    private static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /** The name as it may be shown in a message: control characters (newlines, ANSI escapes) as '?'. */
    private static String shown(String name) {
        return name.replaceAll("\\p{Cntrl}", "?");
    }
}
