package dev.lockwarden.admin.service;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.FenceCounter;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import dev.lockwarden.admin.security.AdminUser;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the dashboard can do, over {@link LockInspector} only (never Redis directly). No UI types:
 * the views call it and it is unit-tested alone. Roles are enforced here, whatever the UI shows.
 */
public final class AdminService {
    /** Locks the clients view scans to find dead clients that still own locks. */
    public static final int CLIENT_SCAN = 20_000;

    private static final int AUDIT_SCAN = 5_000;
    private final LockInspector inspector;
    private final int pageSize;
    private final java.time.Duration longHeld;
    private int scanTargets = 1;
    private java.time.Duration searchBudget = LockSearch.BUDGET;
    /** Null: no local copy of the audit records. */
    private AuditFile auditFile;
    /** Filter scans of every session: few threads, so many open tabs cannot load Redis much more than one. */
    private static final java.util.concurrent.ExecutorService SEARCHES =
            java.util.concurrent.Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "lockwarden-admin-search");
                t.setDaemon(true);
                return t;
            });

    /**
     * @param inspector the lock-core inspector
     * @param pageSize  locks per "load more" page (1..10000)
     */
    public AdminService(LockInspector inspector, int pageSize) {
        this(inspector, pageSize, java.time.Duration.ofMinutes(10));
    }

    /** @param longHeld locks held longer than this are marked LONG-HELD */
    public AdminService(LockInspector inspector, int pageSize, java.time.Duration longHeld) {
        this.inspector = Objects.requireNonNull(inspector, "inspector");
        new PageRequest("0", pageSize); // validates the size with lock-core's message
        this.pageSize = pageSize;
        this.longHeld = longHeld;
    }

    /** The long-held threshold. */
    public java.time.Duration longHeld() {
        return longHeld;
    }

    /**
     * Starts scanning for {@code wanted} locks matching {@code query} on a background thread, going on
     * from {@code from} (a stopped or full search) or from the start; see {@link LockSearch}.
     */
    public LockSearch search(LockQuery query, int wanted, Optional<LockSearch.Snapshot> from) {
        LockSearch s = new LockSearch(inspector, query, wanted, scanTargets, searchBudget, from);
        SEARCHES.execute(s::run);
        return s;
    }

    /** Locks per page. */
    public int pageSize() {
        return pageSize;
    }

    /** Names the deployment ({@code LockManager.describeRedis()}), for the scan's progress. */
    public AdminService withRedis(String redis) {
        AdminService s = new AdminService(inspector, pageSize, longHeld);
        s.scanTargets = LockSearch.targets(redis);
        s.auditFile = auditFile;
        s.searchBudget = searchBudget;
        return s;
    }

    /**
     * How long one filter's scan may run before it stops and offers "Keep scanning" ({@link LockSearch#BUDGET}
     * unless set here): the dashboard's {@code --search-budget} / {@code lockwarden.admin.search-budget}.
     */
    public AdminService withSearchBudget(java.time.Duration budget) {
        if (budget.isNegative()) {
            throw new IllegalArgumentException("search budget " + budget + " is negative");
        }
        AdminService s = new AdminService(inspector, pageSize, longHeld);
        s.scanTargets = scanTargets;
        s.auditFile = auditFile;
        s.searchBudget = budget;
        return s;
    }

    /** Appends every force-release made through this service to {@code file} too (null = none). */
    public AdminService withAuditFile(AuditFile file) {
        AdminService s = new AdminService(inspector, pageSize, longHeld);
        s.scanTargets = scanTargets;
        s.auditFile = file;
        s.searchBudget = searchBudget;
        return s;
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

    /** The named locks still held, re-read in one round trip per node (what the live refresh reads). */
    public List<LockInfo> refresh(List<String> names) {
        return names.isEmpty() ? List.of() : inspector.getAll(names);
    }

    /** Fencing counters, free locks included, at most {@code max}. */
    public List<FenceCounter> fences(String prefix, int max) {
        return inspector.fences(prefix == null ? "" : prefix.strip(), max);
    }

    /** Live client JVMs and dead ones still owning locks (scanning at most {@value #CLIENT_SCAN} locks). */
    public List<ClientInfo> clients() {
        return inspector.clients(CLIENT_SCAN);
    }

    /**
     * Force-releases every lock of a dead client, one audit record per lock.
     *
     * @throws AccessDeniedException the user is not an OPERATOR
     */
    public List<ForceReleaseResult> releaseAllOf(String jvmId, AdminUser user) {
        requireOperator(user, "the locks of client " + jvmId);
        List<ForceReleaseResult> out = inspector.releaseAllOf(jvmId, user.name());
        if (auditFile != null) {
            out.stream()
                    .filter(r -> r.releasedOn() > 0)
                    .forEach(r -> auditFile.append(r, user.name(), java.time.Instant.now()));
        }
        return out;
    }

    /** The newest audit records whose operator, lock or holder contains {@code text} ("" = all). */
    public List<AuditRecord> audit(String text, int max) {
        String t = text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT);
        return inspector.audit(t.isEmpty() ? max : AUDIT_SCAN).stream()
                .filter(r -> t.isEmpty()
                        || (r.operator() + " " + r.name() + " " + r.oldHolder())
                                .toLowerCase(java.util.Locale.ROOT)
                                .contains(t))
                .limit(max)
                .toList();
    }

    /**
     * Per application, the activity of the last {@code minutes} minutes (current one included),
     * sorted by application: what the clients published (every 5 s) plus force-releases.
     */
    public List<ApplicationActivity> activity(int minutes) {
        if (minutes < 1 || minutes > 60) {
            throw new IllegalArgumentException(
                    "activity window of " + minutes + " minutes: use 1..60 (clients keep an hour)");
        }
        long last = java.time.Instant.now().getEpochSecond() / 60;
        java.util.Map<String, long[][]> byApp =
                new java.util.TreeMap<>(); // app → [acquired, busy, lost, forced][minute]
        for (dev.lockwarden.ActivityCount c : inspector.activity(java.time.Duration.ofMinutes(minutes))) {
            int i = (int) (c.minute().getEpochSecond() / 60 - (last - minutes + 1));
            if (i < 0 || i >= minutes) {
                continue; // a minute that just left (or, with skewed clocks, not yet entered) the window
            }
            long[][] a = byApp.computeIfAbsent(c.application(), k -> new long[4][minutes]);
            a[0][i] += c.acquired();
            a[1][i] += c.busy();
            a[2][i] += c.lost();
            a[3][i] += c.forceReleased();
        }
        List<ApplicationActivity> out = new ArrayList<>(byApp.size());
        byApp.forEach((app, a) -> out.add(new ApplicationActivity(
                app,
                sum(a[0]),
                sum(a[1]),
                sum(a[2]),
                sum(a[3]),
                java.util.Arrays.stream(a[0]).boxed().toList(),
                java.util.Arrays.stream(a[1]).boxed().toList())));
        return out;
    }

    private static long sum(long[] values) {
        return java.util.Arrays.stream(values).sum();
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
     * @return the result; over Redlock it may be a release on a minority of the nodes ({@link
     *     ForceReleaseResult#releasedOn()} &gt; 0, not {@code released}): {@link #describe} says which
     * @throws LockChangedException  the lock was released or re-acquired since it was shown; nothing was released on
     *                               any node
     * @throws dev.lockwarden.LockStoreException Redis failed, or a key the force-release writes holds a value of
     *                               another type (the message names it and the fix); nothing was written
     */
    public ForceReleaseResult forceRelease(LockInfo seen, AdminUser user) {
        requireOperator(user, seen.name());
        ForceReleaseResult r = inspector.forceRelease(seen, user.name());
        if (auditFile != null && r.releasedOn() > 0) {
            auditFile.append(r, user.name(), java.time.Instant.now());
        }
        if (!r.released() && r.releasedOn() == 0) {
            Optional<LockInfo> now = inspector.get(seen.name());
            String others = ForceReleaseReport.others(r.nodes());
            throw new LockChangedException("'" + seen.name() + "' changed hands since you confirmed (fence "
                    + seen.fencingToken() + "): "
                    + now.map(i -> "now held by " + i.holder().application() + " with fence " + i.fencingToken())
                            .orElse("it is free now")
                    + ". Nothing was released" + (r.nodes().size() > 1 ? " on any node (" + others + ")" : "")
                    + ": review it and confirm again.");
        }
        return r;
    }

    /** What the operator reads after {@link #forceRelease}: what happened, node by node over Redlock. */
    public String describe(ForceReleaseResult r) {
        return ForceReleaseReport.text(r);
    }

    private static void requireOperator(AdminUser user, String name) {
        if (user == null || !user.role().mayForceRelease()) {
            String who = user == null ? "an anonymous user" : "user '" + user.name() + "' (" + user.role() + ")";
            throw new AccessDeniedException(who + " may not force-release "
                    + (name.startsWith("the locks") ? name : "'" + name + "'") + ": the OPERATOR role is required");
        }
    }
}
