package dev.lockwarden.admin.service;

import java.util.List;

/**
 * One application's lock activity over the last minutes: totals, and per-minute series (oldest
 * first, one entry per minute of the window, 0 where nothing happened).
 */
public record ApplicationActivity(
        String application,
        long acquired,
        long busy,
        long lost,
        long forceReleased,
        List<Long> acquiredPerMinute,
        List<Long> busyPerMinute) {
    public ApplicationActivity {
        acquiredPerMinute = List.copyOf(acquiredPerMinute);
        busyPerMinute = List.copyOf(busyPerMinute);
    }
}
