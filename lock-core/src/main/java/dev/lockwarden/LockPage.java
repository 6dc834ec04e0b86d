package dev.lockwarden;

import java.util.List;
import java.util.Optional;

/**
 * One page of held locks.
 *
 * @param locks      the locks on this page
 * @param nextCursor cursor of the next page, or null when this was the last one
 */
public record LockPage(List<LockInfo> locks, String nextCursor) {
    /**
     * Copies the list.
     *
     * @param locks      the locks on this page
     * @param nextCursor cursor of the next page, or null when this was the last one
     */
    public LockPage {
        locks = List.copyOf(locks);
    }

    /**
     * @param size how many locks the next page should hold
     * @return the next page's request, or empty after the last page
     */
    public Optional<PageRequest> next(int size) {
        return nextCursor == null ? Optional.empty() : Optional.of(new PageRequest(nextCursor, size));
    }
}
