package dev.lockwarden.agent.config;

import java.util.List;

/**
 * Name helpers the config parser and the weave-time filters share: the packages the agent never instruments, what
 * a class pattern can match, and the wildcard match itself. Plain loops, no regular expressions (they run in
 * {@code premain}). The wildcard match never backtracks recursively: it keeps one resume point, so its work is at
 * most the product of the two lengths, whatever the pattern.
 */
public final class Names {
    /** Packages never instrumented: the JDK's and Lockwarden's own (an agent lock inside the lock client would recurse). */
    public static final List<String> PROTECTED =
            // "dev.lockwarden." joined at run time: the shade plugin rewrites a string constant starting with a
            // relocated package, and the shaded jar would protect dev.lockwarden.agent.shaded.dev.lockwarden. instead
            List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", String.join(".", "dev", "lockwarden", ""));

    private Names() {}

    /** Whether {@code s} is non-empty ASCII digits only. */
    public static boolean digits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The protected package ({@link #PROTECTED}) a dotted class pattern can match a class of, if any. */
    public static String protectedPackageMatched(String classPattern) {
        for (String p : PROTECTED) {
            if (canMatchIn(classPattern, p)) {
                return p;
            }
        }
        return null;
    }

    /**
     * Whether the dotted class pattern can match a class whose name starts with {@code packagePrefix} (a package
     * name with its final dot): the pattern has more levels than the package, and each of the package's levels
     * matches the pattern's level there ({@code *} never crosses a dot, so levels line up).
     */
    static boolean canMatchIn(String classPattern, String packagePrefix) {
        int pi = 0;
        int from = 0;
        while (from < packagePrefix.length()) {
            int dot = packagePrefix.indexOf('.', from);
            int patternDot = classPattern.indexOf('.', pi);
            if (patternDot < 0) {
                return false; // the pattern ends (its class name) before the package does
            }
            if (!wildcard(classPattern.substring(pi, patternDot), packagePrefix.substring(from, dot), '.')) {
                return false;
            }
            pi = patternDot + 1;
            from = dot + 1;
        }
        return true;
    }

    /**
     * Whether {@code name} matches {@code pattern} as a whole, {@code *} standing for any run of characters other
     * than {@code separator}, everything else literal. Iterative with one resume point (the last {@code *}): a
     * {@code *} in an earlier level can never take more, since it would have to cross a separator.
     */
    public static boolean wildcard(String pattern, String name, char separator) {
        int p = 0;
        int s = 0;
        int star = -1;
        int mark = 0;
        int m = pattern.length();
        int n = name.length();
        while (s < n) {
            char c = p < m ? pattern.charAt(p) : 0;
            if (p < m && c == '*') {
                star = p++;
                mark = s;
            } else if (p < m && c == name.charAt(s)) {
                p++;
                s++;
            } else if (star >= 0 && name.charAt(mark) != separator) {
                p = star + 1;
                s = ++mark;
            } else {
                return false;
            }
        }
        while (p < m && pattern.charAt(p) == '*') {
            p++;
        }
        return p == m;
    }
}
