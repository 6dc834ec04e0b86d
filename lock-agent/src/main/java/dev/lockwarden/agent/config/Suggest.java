package dev.lockwarden.agent.config;

import java.util.List;

/** "did you mean" hints for misspelt names. */
final class Suggest {
    private Suggest() {}

    /** {@code " (did you mean 'x'?)"} when a known name is close to {@code given}, else "". */
    static String of(String given, List<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = k.equalsIgnoreCase(given) ? 0 : distance(k.toLowerCase(), given.toLowerCase());
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance <= 2 ? " (did you mean '" + best + "'?)" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
