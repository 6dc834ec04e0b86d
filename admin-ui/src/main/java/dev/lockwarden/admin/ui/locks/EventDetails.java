package dev.lockwarden.admin.ui.locks;

import dev.lockwarden.LockEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The "Details" text of one event in a lock's history: whatever fields lock-core recorded beyond
 * type, time, fence and who, so new kinds of events show without a dashboard change.
 */
final class EventDetails {
    /** Shown in their own columns, or of no use to an operator. */
    private static final Set<String> SHOWN_ELSEWHERE =
            Set.of("type", "name", "at", "fence", "oldFence", "app", "operator", "jvm");

    private EventDetails() {}

    static String of(LockEvent e) {
        Map<String, String> f = e.fields();
        List<String> parts = new ArrayList<>();
        if (f.containsKey("newFence")) {
            parts.add("fence → " + f.get("newFence"));
        }
        if (f.containsKey("holder.app")) {
            parts.add("holder " + f.get("holder.app") + " @ " + f.getOrDefault("holder.host", "?") + ", pid "
                    + f.getOrDefault("holder.pid", "?"));
        }
        Map<String, String> rest = new TreeMap<>(f);
        rest.keySet()
                .removeIf(k -> SHOWN_ELSEWHERE.contains(k)
                        || k.equals("newFence")
                        || k.startsWith("holder.")
                        || k.toLowerCase(java.util.Locale.ROOT)
                                .contains("token")); // never a token, not even a hash of one
        rest.forEach((k, v) -> parts.add(k + " " + v));
        return String.join(" · ", parts);
    }
}
