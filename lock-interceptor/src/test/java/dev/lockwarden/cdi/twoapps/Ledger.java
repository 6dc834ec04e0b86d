package dev.lockwarden.cdi.twoapps;

import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.Locked;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Deployed in two independent containers (two "application instances"). Its state is static: it
 * stands for the database both instances share. {@link #add} does a read-modify-write with a pause
 * in between, so unprotected concurrent calls lose updates and overlap.
 */
@ApplicationScoped
public class Ledger {
    public static final Map<String, Integer> BALANCES = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> ACTIVE = new ConcurrentHashMap<>();
    public static final AtomicInteger MAX_SAME_KEY_OVERLAP = new AtomicInteger();
    public static final AtomicInteger ACTIVE_ANY = new AtomicInteger();
    public static final AtomicInteger MAX_ACTIVE_ANY = new AtomicInteger();
    public static final Map<String, AtomicInteger> RUNS_BY_INSTANCE = new ConcurrentHashMap<>();

    @Inject
    LockManager locks;

    @Locked(value = "account:{0}", waitUpTo = "30s")
    public void add(String account) throws InterruptedException {
        body(account);
    }

    /** The control: the same body without the lock. */
    public void addUnlocked(String account) throws InterruptedException {
        body(account);
    }

    private void body(String account) throws InterruptedException {
        int sameKey = ACTIVE.computeIfAbsent(account, k -> new AtomicInteger()).incrementAndGet();
        MAX_SAME_KEY_OVERLAP.accumulateAndGet(sameKey, Math::max);
        MAX_ACTIVE_ANY.accumulateAndGet(ACTIVE_ANY.incrementAndGet(), Math::max);
        RUNS_BY_INSTANCE
                .computeIfAbsent(locks.application(), k -> new AtomicInteger())
                .incrementAndGet();
        try {
            int read = BALANCES.getOrDefault(account, 0);
            Thread.sleep(15);
            BALANCES.put(account, read + 1);
        } finally {
            ACTIVE_ANY.decrementAndGet();
            ACTIVE.get(account).decrementAndGet();
        }
    }

    public static void reset() {
        BALANCES.clear();
        ACTIVE.clear();
        MAX_SAME_KEY_OVERLAP.set(0);
        ACTIVE_ANY.set(0);
        MAX_ACTIVE_ANY.set(0);
        RUNS_BY_INSTANCE.clear();
    }
}
