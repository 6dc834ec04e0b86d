package dev.lockwarden.metrics;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockInspector;
import dev.lockwarden.LockPage;
import dev.lockwarden.PageRequest;
import java.util.List;
import java.util.Optional;

/** Counts force-releases made through an inspector; everything else passes through. */
public final class MeteredInspector implements LockInspector {
    private final LockInspector delegate;
    private final LockMetrics metrics;

    /**
     * @param delegate the inspector that does the work
     * @param metrics  where force-releases are counted
     */
    public MeteredInspector(LockInspector delegate, LockMetrics metrics) {
        this.delegate = delegate;
        this.metrics = metrics;
    }

    @Override
    public LockPage list(LockFilter filter, PageRequest page) {
        return delegate.list(filter, page);
    }

    @Override
    public List<Long> keyCounts() {
        return delegate.keyCounts();
    }

    @Override
    public dev.lockwarden.LockCount count(java.time.Duration budget) {
        return delegate.count(budget);
    }

    @Override
    public List<LockInfo> getAll(List<String> names) {
        return delegate.getAll(names);
    }

    @Override
    public Optional<LockInfo> get(String name) {
        return delegate.get(name);
    }

    @Override
    public long fenceOf(String name) {
        return delegate.fenceOf(name);
    }

    @Override
    public ForceReleaseResult forceRelease(String name, String operator) {
        ForceReleaseResult r = delegate.forceRelease(name, operator);
        if (r.released()) {
            metrics.count(name, null, LockMetrics.Event.FORCE_RELEASED);
        }
        return r;
    }

    @Override
    public ForceReleaseResult forceRelease(LockInfo seen, String operator) {
        ForceReleaseResult r = delegate.forceRelease(seen, operator);
        if (r.released()) {
            metrics.count(seen.name(), seen.source(), LockMetrics.Event.FORCE_RELEASED);
        }
        return r;
    }

    @Override
    public List<dev.lockwarden.FenceCounter> fences(String prefix, int max) {
        return delegate.fences(prefix, max);
    }

    @Override
    public List<dev.lockwarden.ClientInfo> clients(int maxLocksScanned) {
        return delegate.clients(maxLocksScanned);
    }

    @Override
    public List<ForceReleaseResult> releaseAllOf(String jvmId, String operator) {
        List<ForceReleaseResult> r = delegate.releaseAllOf(jvmId, operator);
        r.stream()
                .filter(ForceReleaseResult::released)
                .forEach(x -> metrics.count(x.name(), null, LockMetrics.Event.FORCE_RELEASED));
        return r;
    }

    @Override
    public List<dev.lockwarden.AuditRecord> audit(int max) {
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

    @Override
    public List<String> replicas() {
        return delegate.replicas();
    }
}
