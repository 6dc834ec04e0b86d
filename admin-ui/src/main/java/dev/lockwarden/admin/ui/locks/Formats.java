package dev.lockwarden.admin.ui.locks;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import dev.lockwarden.HolderInfo;
import dev.lockwarden.LockInfo;

/** How lock values are shown. */
final class Formats {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    private Formats() {
    }

    static String ttl(Duration d) {
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

    static String time(Instant at) {
        return at == null || at.toEpochMilli() <= 0 ? "" : TIME.format(at);
    }

    static String text(String s) {
        return s == null ? "" : s;
    }

    static String source(LockInfo i) {
        String m = text(i.method());
        return i.source() == null ? m : m.isEmpty() ? i.source().name() : i.source().name() + " " + m;
    }

    static String holder(HolderInfo h) {
        if (h == null) {
            return "unknown holder";
        }
        return text(h.application()) + " @ " + text(h.host()) + ", pid " + h.pid() + ", thread " + text(h.thread());
    }

    static String alive(LockInfo i) {
        return i.holderAlive() ? "alive" : "ORPHANED";
    }
}
