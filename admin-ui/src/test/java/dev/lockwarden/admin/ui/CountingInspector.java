package dev.lockwarden.admin.ui;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.FenceCounter;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the calls and the lock rows the dashboard reads through the inspector. */
public final class CountingInspector implements LockInspector {
    private final LockInspector delegate;
    final AtomicLong listCalls = new AtomicLong();
    final AtomicLong rowsRead = new AtomicLong();
    final AtomicLong mostRowsInOneCall = new AtomicLong();
    /** Time spent inside {@link #list} and {@link #getAll}, for the scale test's profile. */
    final AtomicLong listNanos = new AtomicLong();

    final AtomicLong getAllNanos = new AtomicLong();
    /** The name of every lock {@link #list} returned, in order, repeats included. */
    public final java.util.Queue<String> listed = new java.util.concurrent.ConcurrentLinkedQueue<>();

    public CountingInspector(LockInspector delegate) {
        this.delegate = delegate;
    }

    private <T extends List<LockInfo>> T count(T rows) {
        rowsRead.addAndGet(rows.size());
        mostRowsInOneCall.accumulateAndGet(rows.size(), Math::max);
        return rows;
    }

    @Override
    public LockPage list(LockFilter filter, PageRequest page) {
        listCalls.incrementAndGet();
        long t0 = System.nanoTime();
        LockPage p = delegate.list(filter, page);
        listNanos.addAndGet(System.nanoTime() - t0);
        count(p.locks());
        p.locks().forEach(i -> listed.add(i.name()));
        return p;
    }

    @Override
    public List<Long> keyCounts() {
        return delegate.keyCounts();
    }

    @Override
    public dev.lockwarden.LockCount count(java.time.Duration budget) {
        return delegate.count(budget); // SCAN only: reads no lock's fields
    }

    @Override
    public List<LockInfo> getAll(List<String> names) {
        long t0 = System.nanoTime();
        List<LockInfo> rows = delegate.getAll(names);
        getAllNanos.addAndGet(System.nanoTime() - t0);
        return count(rows);
    }

    @Override
    public Optional<LockInfo> get(String name) {
        rowsRead.incrementAndGet();
        return delegate.get(name);
    }

    @Override
    public long fenceOf(String name) {
        return delegate.fenceOf(name);
    }

    @Override
    public ForceReleaseResult forceRelease(String name, String operator) {
        return delegate.forceRelease(name, operator);
    }

    @Override
    public ForceReleaseResult forceRelease(LockInfo seen, String operator) {
        return delegate.forceRelease(seen, operator);
    }

    @Override
    public List<FenceCounter> fences(String prefix, int max) {
        return delegate.fences(prefix, max);
    }

    @Override
    public List<ClientInfo> clients(int maxLocksScanned) {
        return delegate.clients(maxLocksScanned);
    }

    @Override
    public List<ForceReleaseResult> releaseAllOf(String jvmId, String operator) {
        return delegate.releaseAllOf(jvmId, operator);
    }

    @Override
    public List<AuditRecord> audit(int max) {
        return delegate.audit(max);
    }

    @Override
    public List<LockEvent> events(String name) {
        return delegate.events(name);
    }

    @Override
    public List<dev.lockwarden.ActivityCount> activity(java.time.Duration window) {
        return delegate.activity(window);
    }
}
