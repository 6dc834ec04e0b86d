package dev.lockwarden.agent.config;

import java.util.List;

/** Lets tests of other packages use {@link HandParsingTest}'s string generator. */
public final class HandParsingTestAccess {
    private HandParsingTestAccess() {}

    public static List<String> samples(String alphabet, int count, long seed) {
        return HandParsingTest.samples(alphabet, count, seed);
    }
}
