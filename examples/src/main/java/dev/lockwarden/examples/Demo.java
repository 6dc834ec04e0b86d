package dev.lockwarden.examples;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockFilter;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.PageRequest;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one-command demo: three service instances receive the same payment request, the same cron
 * tick, a stale writer is stopped by its fencing token, the watchdog keeps a long job's lock, and an
 * operator force-releases a stuck lock. Runs against a Redis it starts itself unless
 * {@code LOCKWARDEN_REDIS} names one; ends by itself.
 */
public final class Demo {
    private static final PrintStream OUT = System.out;

    public static void main(String[] args) throws Exception {
        try (DemoRedis redis = DemoRedis.start()) {
            OUT.println("Lockwarden demo — Redis: " + redis.describe());
            List<LockManager> instances = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                instances.add(LockManager.builder()
                        .redis(redis.uri())
                        .application("billing-" + i)
                        .build());
            }
            try {
                chargeOnce(instances);
                cronOnce(instances);
                staleWriterIsFenced(instances);
                watchdogKeepsLongJob(instances.get(0));
                operatorForceRelease(instances);
            } finally {
                instances.forEach(LockManager::close);
            }
            OUT.println("\nDone. Every step above ran against a real Redis.");
        }
    }

    /** Three instances get "charge TX-123" at the same moment: exactly one charges. */
    static void chargeOnce(List<LockManager> instances) throws InterruptedException {
        OUT.println("\n1) Three instances receive 'charge TX-123' at once");
        AtomicInteger charges = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (LockManager m : instances) {
            Thread t = new Thread(() -> {
                await(go);
                m.tryAcquire("payment:TX-123", LockOptions.ttl(Duration.ofSeconds(30)))
                        .ifPresentOrElse(
                                lock -> {
                                    try (lock) {
                                        charges.incrementAndGet();
                                        OUT.printf(
                                                "   %s charged TX-123 (fencing token %d)%n",
                                                m.application(), lock.fencingToken());
                                        sleep(200);
                                    }
                                },
                                () -> OUT.printf(
                                        "   %s: TX-123 is being charged elsewhere — skipped%n", m.application()));
            });
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        OUT.println("   => customer charged " + charges.get() + " time(s)");
    }

    /** The daily cron fires on every instance; one runs it, the others see it busy. */
    static void cronOnce(List<LockManager> instances) {
        OUT.println("\n2) The daily notification cron fires on every instance");
        LockHandle running = instances.get(1).acquire("cron:daily-notif", LockOptions.ttl(Duration.ofMinutes(5)));
        for (LockManager m : List.of(instances.get(0), instances.get(2))) {
            try {
                m.acquire("cron:daily-notif", LockOptions.ttl(Duration.ofMinutes(5)));
            } catch (LockNotAcquiredException busy) {
                OUT.printf(
                        "   %s: busy, holder's lock expires in %d s%n",
                        m.application(), busy.holderRemainingTtl().orElseThrow().toSeconds());
            }
        }
        OUT.printf("   %s runs the job%n", instances.get(1).application());
        running.release();
    }

    /** A holder pauses past its TTL; the next holder writes; the stale write is rejected by its fence. */
    static void staleWriterIsFenced(List<LockManager> instances) {
        OUT.println("\n3) A holder stalls (think GC pause) past its TTL; fencing stops its late write");
        FencedAccountStore store = new FencedAccountStore();
        LockHandle a = instances
                .get(0)
                .acquire("account:42", LockOptions.ttl(Duration.ofMillis(300)).autoRefresh(false));
        OUT.printf(
                "   %s holds account:42 with fence %d, then stalls...%n",
                instances.get(0).application(), a.fencingToken());
        sleep(500);
        try (LockHandle b = instances.get(1).acquire("account:42", LockOptions.ttl(Duration.ofSeconds(10)))) {
            boolean ok = store.write(b.fencingToken(), "70.00");
            OUT.printf(
                    "   %s took over with fence %d and wrote 70.00: %s%n",
                    instances.get(1).application(), b.fencingToken(), ok ? "accepted" : "rejected");
        }
        boolean stale = store.write(a.fencingToken(), "0.00");
        OUT.printf(
                "   %s wakes up and, without calling checkHeld() (which would say isHeld=%s), writes 0.00 with its old fence %d: %s%n",
                instances.get(0).application(), a.isHeld(), a.fencingToken(), stale ? "ACCEPTED (bug!)" : "rejected");
        OUT.println("   => balance is " + store.balance());
    }

    /** A job longer than its TTL keeps the lock thanks to the watchdog. */
    static void watchdogKeepsLongJob(LockManager m) {
        OUT.println("\n4) A 2-second job under a 600 ms TTL: the watchdog refreshes it every TTL/3");
        try (LockHandle lock = m.acquire("report:monthly", LockOptions.ttl(Duration.ofMillis(600)))) {
            for (int i = 0; i < 4; i++) {
                sleep(500);
                OUT.printf(
                        "   t=%.1fs held=%s remaining TTL %d ms%n",
                        (i + 1) * 0.5, lock.isHeld(), lock.remainingTtl().toMillis());
            }
        }
    }

    /** An operator lists held locks and force-releases a stuck one; its holder learns it lost the lock. */
    static void operatorForceRelease(List<LockManager> instances) throws InterruptedException {
        OUT.println("\n5) An operator sees held locks and force-releases a stuck one");
        LockHandle stuck = instances.get(2).acquire("import:partner-feed", LockOptions.ttl(Duration.ofSeconds(3)));
        CountDownLatch told = new CountDownLatch(1);
        stuck.onLost(e -> {
            OUT.printf("   %s was told: lost '%s' (%s)%n", instances.get(2).application(), e.lockName(), e.reason());
            told.countDown();
        });
        for (LockInfo i : instances
                .get(0)
                .inspector()
                .list(LockFilter.all(), PageRequest.first(50))
                .locks()) {
            OUT.printf(
                    "   held: %-22s by %s (pid %d, thread %s) fence %d, TTL %d ms, holder alive=%s%n",
                    i.name(),
                    i.holder().application(),
                    i.holder().pid(),
                    i.holder().thread(),
                    i.fencingToken(),
                    i.remainingTtl().toMillis(),
                    i.holderAlive());
        }
        ForceReleaseResult r = instances.get(0).inspector().forceRelease("import:partner-feed", "demo-operator");
        OUT.printf(
                "   force-released import:partner-feed: old fence %d -> counter now %d (audit record %s)%n",
                r.oldFence(), r.newFence(), r.auditId());
        told.await(5, java.util.concurrent.TimeUnit.SECONDS);
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Demo() {}
}
