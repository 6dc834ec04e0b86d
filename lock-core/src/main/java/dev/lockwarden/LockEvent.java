package dev.lockwarden;

import java.time.Instant;
import java.util.Map;

/**
 * One entry of the {@code lockwarden:events} stream.
 *
 * @param id     stream entry id
 * @param type   acquire, release, lost, force-release
 * @param name   lock name
 * @param at     when it happened (client clock)
 * @param fields every field of the entry (fence, application, jvm, operator, ...)
 */
public record LockEvent(String id, String type, String name, Instant at, Map<String, String> fields) {
    /**
     * Copies the fields.
     *
     * @param id     stream entry id
     * @param type   acquire, release, lost, force-release
     * @param name   lock name
     * @param at     when it happened (client clock)
     * @param fields every field of the entry (fence, application, jvm, operator, ...)
     */
    public LockEvent {
        fields = Map.copyOf(fields);
    }
}
