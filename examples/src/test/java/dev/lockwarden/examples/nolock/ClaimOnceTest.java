package dev.lockwarden.examples.nolock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** 16 concurrent callers with the same idempotency key: the database lets exactly one through, 50 times over. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClaimOnceTest {

    @Test
    void insertOnConflictDoNothingLetsExactlyOneCallerThrough() throws Exception {
        ClaimOnce claims =
                new ClaimOnce("jdbc:h2:mem:claims-pg;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1");
        for (int round = 0; round < 50; round++) {
            String key = "TX-" + round;
            assertEquals(1, race(16, caller -> claims.claimWithOnConflict(key, caller)), key);
        }
    }

    @Test
    void aUniqueConstraintLetsExactlyOneCallerThrough() throws Exception {
        ClaimOnce claims = new ClaimOnce("jdbc:h2:mem:claims-unique;DB_CLOSE_DELAY=-1");
        for (int round = 0; round < 50; round++) {
            String key = "TX-" + round;
            assertEquals(1, race(16, caller -> claims.claimWithUniqueConstraint(key, caller)), key);
        }
    }

    interface Claim {
        boolean claim(String caller) throws Exception;
    }

    /** {@code n} threads claim at the same moment; returns how many won. */
    private static long race(int n, Claim claim) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Callable<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String caller = "instance-" + i;
                calls.add(() -> {
                    go.await();
                    return claim.claim(caller);
                });
            }
            List<Future<Boolean>> results = new ArrayList<>();
            calls.forEach(c -> results.add(pool.submit(c)));
            go.countDown();
            long won = 0;
            for (Future<Boolean> f : results) {
                won += f.get(20, TimeUnit.SECONDS) ? 1 : 0;
            }
            return won;
        } finally {
            pool.shutdownNow();
        }
    }
}
