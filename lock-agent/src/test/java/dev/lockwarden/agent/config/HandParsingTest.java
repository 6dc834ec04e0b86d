package dev.lockwarden.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The config parser checks names by hand (no regex in premain); these are the regular expressions it used before,
 * compared on many generated strings (fixed seed) and on hand-picked edge cases, so the accepted syntax is unchanged.
 */
class HandParsingTest {
    private static final String IDENT = "[A-Za-z_$][A-Za-z0-9_$]*";
    private static final String WILD = "[A-Za-z_$*][A-Za-z0-9_$*]*";
    private static final Pattern CLASS = Pattern.compile(IDENT + "(\\." + WILD + ")*");
    private static final Pattern METHOD = Pattern.compile(WILD);
    private static final Pattern TYPE = Pattern.compile(IDENT + "(\\." + IDENT + ")*(\\[\\])*");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]*)}");
    private static final Pattern SETTING = Pattern.compile("^([A-Za-z][A-Za-z0-9.-]*)\\s*=(.*)$");

    static List<String> samples(String alphabet, int count, long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>(List.of(
                "", ".", "a", "a.", ".a", "a..b", "1a", "a1", "*", "a.*", "*.a", "a.b*c.d", "a$b", "_x", "a[]", "a[][]",
                "a.b[]", "[]", "a[", "a.1b", "é", "a b", "a\tb"));
        for (int i = 0; i < count; i++) {
            int n = r.nextInt(9);
            StringBuilder b = new StringBuilder();
            for (int j = 0; j < n; j++) {
                b.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void namesAcceptWhatTheRegexesAccepted() {
        for (String s : samples("aZ_$9.*[] é-", 50_000, 1)) {
            assertEquals(CLASS.matcher(s).matches(), RuleLine.dotted(s, true), "class pattern '" + s + "'");
            assertEquals(METHOD.matcher(s).matches(), RuleLine.name(s, true), "method pattern '" + s + "'");
            assertEquals(TYPE.matcher(s).matches(), RuleLine.type(s), "parameter type '" + s + "'");
        }
    }

    @Test
    void placeholdersAreWhatTheRegexFound() {
        for (String s : samples("{}a0. ", 50_000, 2)) {
            List<String> expected = new ArrayList<>();
            Matcher m = PLACEHOLDER.matcher(s);
            while (m.find()) {
                expected.add(m.group(1));
            }
            assertEquals(expected, RuleLine.placeholders(s), "template '" + s + "'");
        }
    }

    @Test
    void settingLinesAreWhatTheRegexMatched() {
        for (String s : samples("aZ9.-= \t\u000B#:/", 50_000, 3)) {
            Matcher m = SETTING.matcher(s);
            int eq = AgentConfigParser.settingEquals(s);
            assertEquals(m.matches(), eq > 0, "line '" + s + "'");
            if (eq > 0) {
                assertEquals(m.group(1), s.substring(0, eq).strip(), "name of '" + s + "'");
                assertEquals(m.group(2), s.substring(eq + 1), "value of '" + s + "'");
            }
        }
    }
}
