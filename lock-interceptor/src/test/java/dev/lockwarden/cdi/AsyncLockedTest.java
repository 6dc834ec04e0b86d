package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.cdi.beans.AsyncService;
import dev.lockwarden.cdi.beans.LostEvents;
import dev.lockwarden.cdi.beans.Probe;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Test;

/**
 * {@code @Locked} methods returning {@code CompletionStage}/{@code CompletableFuture} in Weld (through
 * Arquillian) against a real redis-server: the lock lives until the stage completes.
 */
class AsyncLockedTest extends WeldOnRedisTest {

    @Inject
    AsyncService async;

    @Inject
    Probe probe;

    @Inject
    LostEvents lostEvents;

    @Inject
    LockManager locks;

    @Deployment
    static JavaArchive deployment() {
        return beansArchive("async-test.jar");
    }

    private void fresh() {
        redis.flushAll();
        probe.reset();
        lostEvents.reset();
    }

    @Test
    void lockIsHeldUntilTheStageCompletesNotUntilTheMethodReturns() throws Exception {
        fresh();
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletableFuture<String> stage = async.work("A", gate);

        assertFalse(stage.isDone(), "the stage is still pending");
        assertThrows(
                IllegalStateException.class, Locks::current, "the LockContext was popped when the method returned");
        LockInfo info = locks.inspector().get("async:A").orElseThrow(() -> new AssertionError("released at return"));
        assertEquals(LockSource.CDI, info.source());
        assertTrue(
                otherJvm.tryAcquire("async:A", LockOptions.ttl(Duration.ofSeconds(5)))
                        .isEmpty(),
                "another instance finds the lock busy while the stage is pending");
        var busy = assertThrows(
                LockNotAcquiredException.class,
                () -> async.work("A", new CompletableFuture<>()),
                "a second caller on the same thread is busy too: no reentrancy across the async boundary");
        assertEquals("async:A", busy.lockName());
        assertEquals(1, probe.runs(), "the busy caller did not run the body");

        Thread completer = new Thread(() -> gate.complete("done"), "completer"); // release from any thread
        completer.start();
        assertEquals("done@" + info.fencingToken(), stage.get(5, TimeUnit.SECONDS));
        assertTrue(locks.inspector().get("async:A").isEmpty(), "released once the stage completed");
        try (LockHandle again = otherJvm.tryAcquire("async:A", LockOptions.ttl(Duration.ofSeconds(5)))
                .orElseThrow()) {
            assertTrue(again.isHeld());
        }
    }

    @Test
    void aSynchronousHolderDoesNotPassItsLockToAnAsyncCallee() {
        fresh();
        assertEquals("busy", async.syncOuterThenAsync("E"), "no reentrancy across the async boundary");
        assertEquals(0, probe.runs());
        assertTrue(locks.inspector().get("async:E").isEmpty());
    }

    @Test
    void aFailedStageReleasesTheLockAndKeepsItsFailure() throws Exception {
        fresh();
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletableFuture<String> stage = async.work("B", gate);
        gate.completeExceptionally(new IllegalArgumentException("declined"));

        var failure = assertThrows(ExecutionException.class, () -> stage.get(5, TimeUnit.SECONDS));
        assertInstanceOf(IllegalArgumentException.class, failure.getCause());
        assertEquals("declined", failure.getCause().getMessage());
        assertTrue(locks.inspector().get("async:B").isEmpty());

        var thrown = assertThrows(IllegalStateException.class, () -> async.failsBeforeReturning("B"));
        assertEquals("no stage for B", thrown.getMessage());
        assertTrue(
                locks.inspector().get("async:B").isEmpty(),
                "released when the method threw instead of returning a stage");
    }

    @Test
    void lockLostWhileTheStageIsPendingFailsTheStageAndFiresTheEvent() throws Exception {
        fresh();
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletionStage<String> stage = async.shortLease("C", gate);
        locks.inspector().forceRelease("async:C", "test operator");
        Thread.sleep(600); // the watchdog's next refresh (every ttl/3) finds the lock gone
        gate.complete("too late");

        var failure = assertThrows(
                ExecutionException.class, () -> stage.toCompletableFuture().get(5, TimeUnit.SECONDS));
        var lost = assertInstanceOf(LockLostException.class, failure.getCause());
        assertEquals("async:C", lost.lockName());
        assertTrue(
                lost.getMessage().contains("while @Locked method " + AsyncService.class.getName() + "#shortLease ran"),
                lost.getMessage());
        List<LockLostEvent> events = lostEvents.seen();
        assertEquals(1, events.size(), "one event per lost invocation: " + events);
        assertEquals("async:C", events.get(0).lockName());
        assertEquals(LockLostEvent.Outcome.STAGE_FAILED, events.get(0).outcome());
        assertEquals(AsyncService.class.getName() + "#shortLease", events.get(0).method());
    }

    @Test
    void aStageThatFailsAfterItsLockWasLostKeepsItsFailureWithTheLossAddedAsForASynchronousMethod() throws Exception {
        fresh();
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletionStage<String> stage = async.shortLease("F", gate);
        locks.inspector().forceRelease("async:F", "test operator");
        Thread.sleep(600); // the watchdog's next refresh (every ttl/3) finds the lock gone
        IllegalStateException own = new IllegalStateException("the stage's own failure");
        gate.completeExceptionally(own);

        var failure = assertThrows(
                ExecutionException.class, () -> stage.toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(own, failure.getCause(), "the stage's own failure stays the one reported");
        assertEquals(1, own.getSuppressed().length, "the loss is added to it");
        var lost = assertInstanceOf(LockLostException.class, own.getSuppressed()[0]);
        assertEquals("async:F", lost.lockName());
        List<LockLostEvent> events = lostEvents.seen();
        assertEquals(1, events.size(), "one event per lost invocation: " + events);
        assertEquals(LockLostEvent.Outcome.STAGE_FAILED, events.get(0).outcome());
        assertTrue(locks.inspector().get("async:F").isEmpty());
    }

    @Test
    void skipReturnsAnAlreadyCompletedStageWithoutRunningTheMethod() throws Exception {
        fresh();
        try (LockHandle held = otherJvm.acquire("async:D", LockOptions.ttl(Duration.ofSeconds(10)))) {
            CompletableFuture<String> skipped = async.skipIfBusy("D").toCompletableFuture();
            assertTrue(skipped.isDone() && !skipped.isCompletedExceptionally());
            assertNull(skipped.get());
            CompletableFuture<Optional<String>> optional = async.optionalIfBusy("D");
            assertTrue(optional.isDone());
            assertEquals(Optional.empty(), optional.get(), "a stage of Optional completes with Optional.empty()");
        }
        assertEquals(0, probe.runs(), "skipped calls never run the method");
        assertEquals(
                "ran", async.skipIfBusy("D").toCompletableFuture().get(5, TimeUnit.SECONDS), "free again: it runs");
        assertEquals(1, probe.runs());
    }
}
