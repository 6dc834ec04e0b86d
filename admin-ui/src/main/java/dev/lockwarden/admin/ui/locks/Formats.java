package dev.lockwarden.admin.ui.locks;

import dev.lockwarden.HolderInfo;
import dev.lockwarden.LockInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How lock values are shown. */
public final class Formats {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z").withZone(ZoneId.systemDefault());

    private Formats() {}

    public static String ttl(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d m %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d m", s / 3600, (s % 3600) / 60);
    }

    /** {@code 1 lock}, {@code 2 locks}: a count with its noun in the right number. */
    public static String count(long n, String noun) {
        return String.format(java.util.Locale.ROOT, "%,d", n) + " " + (n == 1 ? noun : noun + "s");
    }

    public static String time(Instant at) {
        return at == null || at.toEpochMilli() <= 0 ? "" : TIME.format(at);
    }

    static String text(String s) {
        return s == null ? "" : s;
    }

    static String source(LockInfo i) {
        String m = text(i.method());
        return i.source() == null
                ? m
                : m.isEmpty() ? i.source().name() : i.source().name() + " " + m;
    }

    public static String holder(HolderInfo h) {
        if (h == null) {
            return "unknown holder";
        }
        return text(h.application()) + " @ " + text(h.host()) + ", pid " + h.pid() + ", thread " + text(h.thread());
    }

    /** Time since the lock was acquired. */
    static Duration age(LockInfo i) {
        long at = i.acquiredAt() == null ? 0 : i.acquiredAt().toEpochMilli();
        return at <= 0 ? Duration.ZERO : Duration.ofMillis(Math.max(0, System.currentTimeMillis() - at));
    }

    /** alive / ORPHANED, plus LONG-HELD when held longer than {@code longHeld}. */
    static String marks(LockInfo i, Duration longHeld) {
        return alive(i) + (age(i).compareTo(longHeld) > 0 ? " · LONG-HELD" : "");
    }

    static String alive(LockInfo i) {
        return i.holderAlive() ? "alive" : "ORPHANED";
    }
}
