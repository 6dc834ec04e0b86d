package dev.lockwarden.checks;

/** A problem in a code block: the line it is on (0 for the block's first line) and what is wrong. */
record Finding(int line, String what) {
    /** The problem at {@code offset} in the block's {@code text}. */
    static Finding at(String text, int offset, String what) {
        int line = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return new Finding(line, what);
    }
}
