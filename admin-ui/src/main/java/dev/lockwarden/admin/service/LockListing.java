package dev.lockwarden.admin.service;

import dev.lockwarden.LockInfo;
import java.util.List;

/**
 * The locks of the first N pages of a query.
 *
 * @param locks the locks, in scan order
 * @param more  whether another page can be loaded
 */
public record LockListing(List<LockInfo> locks, boolean more) {
    public LockListing {
        locks = List.copyOf(locks);
    }
}
