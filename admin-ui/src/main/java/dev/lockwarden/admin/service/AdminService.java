package dev.lockwarden.admin.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import dev.lockwarden.admin.security.AdminUser;

/**
 * What the dashboard can do, over {@link LockInspector} only (never Redis directly). No UI types:
 * the views call it and it is unit-tested alone. Roles are enforced here, whatever the UI shows.
 */
public final class AdminService {
    private final LockInspector inspector;
    private final int pageSize;

    /**
     * @param inspector the lock-core inspector
     * @param pageSize  locks per "load more" page (1..10000)
     */
    public AdminService(LockInspector inspector, int pageSize) {
        this.inspector = Objects.requireNonNull(inspector, "inspector");
        new PageRequest("0", pageSize); // validates the size with lock-core's message
        this.pageSize = pageSize;
    }

    /** The locks of the first {@code pages} pages (at least one), re-read from Redis. */
    public LockListing list(LockQuery query, int pages) {
        List<LockInfo> locks = new ArrayList<>();
        Optional<PageRequest> next = Optional.of(PageRequest.first(pageSize));
        for (int i = 0; i < Math.max(1, pages) && next.isPresent(); i++) {
            LockPage page = inspector.list(query.toFilter(), next.get());
            locks.addAll(page.locks());
            next = page.next(pageSize);
        }
        return new LockListing(locks, next.isPresent());
    }

    /** One lock, if it is held right now. */
    public Optional<LockInfo> get(String name) {
        return inspector.get(name);
    }

    /** Recent events of one lock, newest first. */
    public List<LockEvent> events(String name) {
        return inspector.events(name);
    }

    /**
     * Force-releases the lock only if it is still the acquisition the operator confirmed (same token
     * and fence, checked by lock-core's force-release script in the same step as the release), so a
     * lock that changed hands meanwhile is never taken from its new holder.
     *
     * @param seen the lock as shown in the confirm dialog
     * @throws AccessDeniedException the user is not an OPERATOR
     * @throws LockChangedException  the lock was released or re-acquired since it was shown; nothing changed
     */
    public ForceReleaseResult forceRelease(LockInfo seen, AdminUser user) {
        requireOperator(user, seen.name());
        ForceReleaseResult r = inspector.forceRelease(seen, user.name());
        if (!r.released()) {
            Optional<LockInfo> now = inspector.get(seen.name());
            throw new LockChangedException("'" + seen.name() + "' changed hands since you confirmed (fence "
                    + seen.fencingToken() + "): " + now.map(i -> "now held by " + i.holder().application() + " with fence "
                    + i.fencingToken()).orElse("it is free now") + ". Nothing was released: review it and confirm again.");
        }
        return r;
    }

    private static void requireOperator(AdminUser user, String name) {
        if (user == null || !user.role().mayForceRelease()) {
            String who = user == null ? "an anonymous user" : "user '" + user.name() + "' (" + user.role() + ")";
            throw new AccessDeniedException(who + " may not force-release '" + name + "': the OPERATOR role is required");
        }
    }
}
