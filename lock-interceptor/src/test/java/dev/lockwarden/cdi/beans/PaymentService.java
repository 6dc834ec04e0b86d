package dev.lockwarden.cdi.beans;

import dev.lockwarden.LockManager;
import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.LockContext;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/** The bean under test: one method per behaviour. */
@ApplicationScoped
public class PaymentService {
    public static final long PAUSE_MILLIS = 40;

    @Inject
    Probe probe;

    @Inject
    LockContext lockContext;

    @Inject
    LockManager locks;

    @Inject
    InnerService inner;

    @Locked(value = "payment:{paymentId}", waitUpTo = "10s")
    public String charge(String paymentId) {
        probe.run(PAUSE_MILLIS);
        return "charged " + paymentId;
    }

    @Locked(value = "payment:{paymentId}", onBusy = OnBusy.SKIP)
    public boolean chargeIfFree(String paymentId) {
        probe.run(PAUSE_MILLIS * 5);
        return true;
    }

    @Locked(value = "slot:{0}", onBusy = OnBusy.SKIP)
    public int countIfFree(String slot) {
        probe.run(0);
        return 42;
    }

    @Locked(value = "payment:{paymentId}", onBusy = OnBusy.SKIP)
    public Optional<String> describeIfFree(String paymentId) {
        return Optional.of("described " + paymentId);
    }

    @Locked("payment:{0}")
    public void failFast(String paymentId) {
        probe.run(0);
    }

    @Locked("payment:{paymentId}")
    public void explode(String paymentId) {
        throw new IllegalStateException("boom " + paymentId);
    }

    @Locked(value = "payment:{paymentId}", ttl = "20s")
    public Inside inside(String paymentId) {
        var handle = lockContext.current();
        return new Inside(
                handle,
                Locks.current(),
                handle.isHeld(),
                handle.fencingToken(),
                locks.inspector().get(handle.name()),
                Thread.currentThread().getName());
    }

    @Locked("order:{order.id}")
    public String nested(Order order) {
        String before = lockContext.current().name();
        String innerSaw = inner.innermost(order.id());
        String after = Locks.current().name();
        return before + " > " + innerSaw + " > " + after;
    }

    @Locked(value = "cron:{0}", ttl = "10s", holdAtLeast = "1s")
    public void onceAPeriod(String job) {
        probe.run(0);
    }

    @Locked
    public String defaultNamed() {
        return Locks.current().name();
    }

    @Locked(value = "payment:{0}", waitUpTo = "300ms")
    public void waitBriefly(String paymentId) {
        probe.run(0);
    }

    @Inject
    PaymentService self; // the contextual reference: calls through it are intercepted

    @Locked("re:{0}")
    public long[] reenter(String id) {
        long outer = Locks.current().fencingToken();
        return new long[] {outer, self.reenterInner(id)};
    }

    @Locked("re:{0}")
    public long reenterInner(String id) {
        return Locks.current().fencingToken();
    }

    /** A minute's TTL: its first refresh is 20 s away, so only the force-release message can tell the holder. */
    @Locked(value = "forced:{0}", ttl = "60s")
    public void forceReleasedWhileRunning(String name) throws InterruptedException {
        locks.inspector().forceRelease("forced:" + name, "test operator");
        long until = System.nanoTime() + 2_000_000_000L; // at most 2 s: the message comes within milliseconds
        while (Locks.current().isHeld() && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    @Locked(value = "lease:{0}", ttl = "300ms")
    public void loseLockWhileRunning(String name) throws InterruptedException {
        locks.inspector().forceRelease("lease:" + name, "test operator");
        Thread.sleep(600); // the watchdog's next refresh (every ttl/3) finds the lock gone
    }
}
