package dev.lockwarden.cdi.beans;

import dev.lockwarden.OnBusy;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Asynchronous @Locked methods: each returns a stage the test completes through {@code gate}. */
@ApplicationScoped
public class AsyncService {
    @Inject
    Probe probe;

    @Locked("async:{0}")
    public CompletableFuture<String> work(String key, CompletableFuture<String> gate) {
        probe.run(0);
        long fence = Locks.current().fencingToken(); // visible on the calling thread until the method returns
        return gate.thenApply(v -> v + "@" + fence);
    }

    @Locked(value = "async:{0}", ttl = "300ms")
    public CompletionStage<String> shortLease(String key, CompletableFuture<String> gate) {
        return gate.thenApply(v -> v);
    }

    @Locked(value = "async:{0}", onBusy = OnBusy.SKIP)
    public CompletionStage<String> skipIfBusy(String key) {
        probe.run(0);
        return CompletableFuture.completedFuture("ran");
    }

    @Locked(value = "async:{0}", onBusy = OnBusy.SKIP)
    public CompletableFuture<Optional<String>> optionalIfBusy(String key) {
        probe.run(0);
        return CompletableFuture.completedFuture(Optional.of("ran"));
    }

    @Inject
    AsyncService self;

    /** A synchronous holder of "async:{key}" calling an async method for the same name. */
    @Locked("async:{0}")
    public String syncOuterThenAsync(String key) {
        try {
            self.work(key, new CompletableFuture<>());
            return "reentered";
        } catch (dev.lockwarden.LockNotAcquiredException busy) {
            return "busy";
        }
    }

    @Locked("async:{0}")
    public CompletableFuture<String> failsBeforeReturning(String key) {
        throw new IllegalStateException("no stage for " + key);
    }
}
