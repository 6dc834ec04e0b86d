package dev.lockwarden.admin.ui.activity;

import java.util.List;

/** A per-minute series as a text sparkline (▁▂▃▄▅▆▇█, scaled to the series' maximum); no chart component needed. */
public final class Sparkline {
    private static final char[] BARS = "▁▂▃▄▅▆▇█".toCharArray();

    private Sparkline() {}

    /** One character per value; 0 is the lowest bar, the maximum the highest, any other value at least the second. */
    public static String of(List<Long> values) {
        long max = values.stream().mapToLong(Long::longValue).max().orElse(0);
        StringBuilder sb = new StringBuilder(values.size());
        for (long v : values) {
            int level = max == 0 || v <= 0 ? 0 : (int) Math.max(1, Math.round((double) v * (BARS.length - 1) / max));
            sb.append(BARS[level]);
        }
        return sb.toString();
    }
}
