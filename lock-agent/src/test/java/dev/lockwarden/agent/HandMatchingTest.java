package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lockwarden.agent.config.HandParsingTestAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Wildcards and bare key placeholders are matched by hand (no regex in premain); compared here with the regular
 * expressions used before, on many generated strings (fixed seed).
 */
class HandMatchingTest {
    private static final Pattern BARE = Pattern.compile("\\{\\s*([A-Za-z0-9_$]+)\\s*}");

    private static String regex(String pattern, char separator) {
        StringJoiner regex = new StringJoiner("[^" + separator + "]*");
        for (String part : pattern.split("\\*", -1)) {
            regex.add(part.isEmpty() ? "" : Pattern.quote(part));
        }
        return regex.toString();
    }

    @Test
    void wildcardsMatchLikeTheRegex() {
        List<String> patterns = HandParsingTestAccess.samples("ab*./", 3_000, 4);
        List<String> names = HandParsingTestAccess.samples("ab./", 300, 5);
        for (String p : patterns) {
            for (char sep : new char[] {'.', '/'}) {
                Pattern r = Pattern.compile(regex(p, sep));
                for (String n : names) {
                    assertEquals(
                            r.matcher(n).matches(),
                            RuleMatchers.wildcard(p, n, sep),
                            "pattern '" + p + "' on '" + n + "' (" + sep + ")");
                }
            }
        }
    }

    @Test
    void barePlaceholdersAreWhatTheRegexFound() {
        for (String s : HandParsingTestAccess.samples("{}a0. \t$", 50_000, 6)) {
            List<String> expected = new ArrayList<>();
            Matcher m = BARE.matcher(s);
            while (m.find()) {
                expected.add(m.group(1));
            }
            assertEquals(expected, KeyCheck.bare(s), "template '" + s + "'");
        }
    }
}
