package dev.lockwarden.admin.ui.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.BulkLocks;
import dev.lockwarden.admin.service.LockQuery;
import dev.lockwarden.admin.service.LockSearch;
import dev.lockwarden.admin.ui.CountingInspector;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A filter's scan that runs out of time (a 1 ms budget: one listing call, a few thousand keys, per scan) says how
 * far it got, as a share of the keys (DBSIZE), and "Keep scanning" goes on from there until every key was seen:
 * further matches each time, none twice. 20,000 locks (40,001 keys); {@code bulk:1999} matches 11 of them.
 */
class KeepScanningTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = RedisServerExtension.nodes(1);

    private static final int LOCKS = 20_000;
    private static final LockQuery ELEVEN = new LockQuery("bulk:1999", "");
    private static final List<String> MATCHES = IntStream.concat(IntStream.of(1999), IntStream.range(19990, 20000))
            .mapToObj(i -> "bulk:" + i)
            .sorted()
            .toList();
    private static final Pattern STOPPED = Pattern.compile(
            "(\\d+) locks? shown so far · (\\d+) % of ([\\d,]+) keys scanned, stopped after 1 ms — Keep scanning"
                    + " · updated .+");
    private static LockManager admin;

    @BeforeAll
    static void twentyThousandLocks() {
        BulkLocks.acquire(REDIS.node(0), LOCKS);
        admin = LockManager.builder()
                .redis(REDIS.uri())
                .application("lockwarden-admin")
                .build();
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    @Test
    void keepScanningGoesOnFromWhereTheScanStoppedUntilEveryKeyWasSeen() throws Exception {
        CountingInspector counting = new CountingInspector(admin.inspector());
        AdminService service =
                new AdminService(counting, 50).withRedis(admin.describeRedis()).withSearchBudget(Duration.ofMillis(1));
        AtomicReference<List<LockInfo>> rows = new AtomicReference<>(List.of());
        LockScan scan = new LockScan(service, () -> ELEVEN, rows::set, () -> "");
        long keys = dbsize();

        scan.restart();
        settle(scan);
        List<String> statuses = new ArrayList<>();
        int percent = 0;
        int firstRows = rows.get().size();
        for (int step = 0; step < 200 && scan.keepScanning.isVisible(); step++) {
            String status = scan.status.getText();
            statuses.add(status.replaceAll(" · updated .*", ""));
            Matcher m = STOPPED.matcher(status);
            assertTrue(m.matches(), status);
            assertEquals(rows.get().size(), Integer.parseInt(m.group(1)), status);
            int now = Integer.parseInt(m.group(2));
            assertTrue(now > percent || (now == percent && step > 0), "the share grows: " + statuses);
            assertTrue(now >= 1 && now <= 99, status);
            assertEquals(String.format(Locale.ROOT, "%,d", keys), m.group(3), "DBSIZE");
            percent = now;
            scan.keepScanning.click();
            settle(scan);
        }
        System.out.printf("bulk:1999 over %,d keys, 1 ms per scan: %s%n", keys, statuses);
        String last = scan.status.getText().replaceAll(" · updated .*", "");
        assertEquals(String.format(Locale.ROOT, "11 locks shown · 11 of 11 matches, %,d keys scanned", keys), last);
        assertTrue(statuses.size() >= 3, "stopped and went on several times: " + statuses);
        assertTrue(firstRows < 11, "the first stop had not found every match: " + statuses);
        assertEquals(MATCHES, rows.get().stream().map(LockInfo::name).sorted().toList(), "each match shown once");
        List<String> listed = List.copyOf(counting.listed);
        assertEquals(
                MATCHES.stream().filter(n -> !n.equals("bulk:1999")).toList(),
                listed.stream().filter(n -> !n.equals("bulk:1999")).sorted().toList(),
                "no key scanned twice, so no match listed twice (bulk:1999 is also read directly, by name)");
    }

    @Test
    void theShareScannedIsKeysScannedOverDbsize() throws Exception {
        AdminService service = new AdminService(admin.inspector(), 50)
                .withRedis(admin.describeRedis())
                .withSearchBudget(Duration.ZERO);
        LockSearch.Snapshot s = service.search(ELEVEN, 50, Optional.empty()).awaitSettled(Duration.ofSeconds(30));
        long keys = dbsize();
        assertTrue(s.stopped(), s.toString());
        assertEquals(keys, s.keyCount().getAsLong(), "DBSIZE");
        long seen = s.keysScanned().getAsLong();
        assertTrue(seen > 0 && seen < keys, "keys scanned " + seen);
        assertEquals((double) seen / keys, s.scanned().getAsDouble(), 1e-9);
        assertEquals(Duration.ZERO, s.budget());

        LockSearch.Snapshot next = service.search(ELEVEN, 50, Optional.of(s)).awaitSettled(Duration.ofSeconds(30));
        assertTrue(next.keysScanned().getAsLong() > seen, "goes on: " + seen + " then " + next.keysScanned());
        assertEquals(s.locks(), next.locks().subList(0, s.locks().size()), "keeps what it had");
    }

    /** DBSIZE, read until it holds still (a key of the dashboard's own manager may come or go). */
    private static long dbsize() throws InterruptedException {
        for (int i = 0; i < 20; i++) {
            long a = Long.parseLong(REDIS.node(0).command("DBSIZE").trim());
            Thread.sleep(50);
            long b = Long.parseLong(REDIS.node(0).command("DBSIZE").trim());
            if (a == b) {
                return a;
            }
        }
        throw new AssertionError("DBSIZE keeps changing");
    }

    /** Shows the scan's progress, as the view's 1 s poll does, until it ended (at most 30 s). */
    private static void settle(LockScan scan) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (scan.running()) {
            assertTrue(System.nanoTime() - end < 0, "the scan did not end in 30 s: " + scan.status.getText());
            Thread.sleep(20);
            scan.poll();
        }
    }
}
