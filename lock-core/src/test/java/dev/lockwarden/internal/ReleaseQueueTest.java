package dev.lockwarden.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Who a release wakes, when the local hand-over and the release's own pub/sub message race: each release
 * wakes exactly one waiter, in arrival order, whichever of the two comes first.
 */
class ReleaseQueueTest {
    private final ReleaseQueue queue = new ReleaseQueue("lock:{x}:released");
    private final ReleaseQueue.Place first = queue.join();
    private final ReleaseQueue.Place second = queue.join();

    @Test
    void aHandOverWakesTheLongestWaiterAndItsMessageThenWakesNobody() throws Exception {
        long mark = queue.heard();
        assertTrue(queue.handOver(mark));
        queue.released(); // the release's own message, after the hand-over
        assertTrue(woken(first));
        assertFalse(woken(second), "one release woke two waiters");
    }

    @Test
    void aMessageThatComesBackBeforeTheHandOverIsTheOnlyWakeUp() throws Exception {
        // Redlock and Cluster hand over after the reply; the release's message (from the node this JVM
        // listens on) can arrive first and wake the longest waiter: the hand-over must not wake the next one
        long mark = queue.heard(); // taken before the release is sent
        queue.released();
        assertFalse(queue.handOver(mark));
        assertTrue(woken(first));
        assertFalse(woken(second), "one release woke two waiters (the second could overtake the first)");
        queue.released(); // the next release's message wakes the next waiter as usual
        assertTrue(woken(second));
    }

    @Test
    void aWaiterWokenTooEarlyByTheMessageIsWokenAgainByTheHandOverNotOvertaken() throws Exception {
        long mark = queue.heard();
        queue.released(); // the message first: the longest waiter tries, maybe before the release is done everywhere
        queue.reset(first); // ... finds the lock still busy and sleeps again
        assertFalse(queue.handOver(mark)); // the reply: the release is done
        assertTrue(woken(first), "the waiter the message woke too early sleeps out its retry");
        assertFalse(woken(second), "the next waiter was woken and could overtake the first");
    }

    @Test
    void aLateMessageOfAnEarlierHandedOverReleaseDoesNotSpoilTheNextHandOver() throws Exception {
        assertTrue(queue.handOver(queue.heard())); // release 1, handed over
        long mark = queue.heard(); // release 2 is sent ...
        queue.released(); // ... and release 1's message arrives only now: it wakes nobody
        assertTrue(queue.handOver(mark), "release 2 was not handed over");
        assertTrue(woken(first));
        assertTrue(woken(second));
    }

    @Test
    void aRetractedHandOverLetsTheNextMessageWakeTheNextWaiter() throws Exception {
        assertTrue(queue.handOver(queue.heard()));
        queue.retractHandOver(); // the release found the lock no longer ours: no message of it comes
        queue.released(); // another holder's release
        assertTrue(woken(first));
        assertTrue(woken(second), "the other holder's release message was swallowed");
    }

    private boolean woken(ReleaseQueue.Place p) throws InterruptedException {
        return queue.await(p, 0);
    }
}
