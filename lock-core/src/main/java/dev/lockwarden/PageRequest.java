package dev.lockwarden;

/**
 * A page of {@link LockInspector#list}: start with {@link #first(int)}, continue with the
 * cursor of the previous {@link LockPage}.
 *
 * @param cursor opaque cursor ("0" = from the start)
 * @param size   how many locks the page should hold (1..10000); SCAN works in batches, so a page may
 *               hold somewhat more, never fewer unless it is the last
 */
public record PageRequest(String cursor, int size) {
    /**
     * Checks the cursor and the size, naming the fix.
     *
     * @param cursor opaque cursor ("0" = from the start)
     * @param size   how many locks the page should hold (1..10000); SCAN works in batches, so a page may
     *               hold somewhat more, never fewer unless it is the last
     */
    public PageRequest {
        if (cursor == null || cursor.isBlank()) {
            throw new IllegalArgumentException("page cursor is blank: start with PageRequest.first(size)");
        }
        if (size < 1 || size > 10_000) {
            throw new IllegalArgumentException("page size " + size + " is out of range: use 1..10000");
        }
    }

    /**
     * @param size how many locks the page should hold (1..10000)
     * @return the request of the first page
     */
    public static PageRequest first(int size) {
        return new PageRequest("0", size);
    }
}
