package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoginServiceTest {
    private static final String PASSWORD = "right-password";
    private final MutableClock clock = new MutableClock();
    private final LoginService logins = new LoginService(
            UserDirectory.of(Map.of(
                    "alice", "OPERATOR:" + PasswordHasher.hash(PASSWORD.toCharArray(), 10_000),
                    "bob", "VIEWER:" + PasswordHasher.hash("bobs-password".toCharArray(), 10_000))),
            clock);
    private final List<String> audit = new CopyOnWriteArrayList<>();
    private final Logger jul = Logger.getLogger(LoginService.AUDIT_LOGGER);
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            audit.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void captureAudit() {
        jul.addHandler(capture);
        jul.setLevel(Level.ALL);
    }

    @AfterEach
    void stopCapture() {
        jul.removeHandler(capture);
    }

    @Test
    void unknownUserWrongAndEmptyPasswordLookTheSame() {
        String unknown =
                logins.login("mallory", "whatever".toCharArray(), "10.0.0.1").message();
        String wrong = logins.login("alice", "wrong".toCharArray(), "10.0.0.2").message();
        String empty = logins.login("alice", new char[0], "10.0.0.3").message();
        assertEquals(LoginService.FAILED, unknown);
        assertEquals(unknown, wrong);
        assertEquals(unknown, empty);
        assertEquals(
                "alice",
                logins.login("alice", PASSWORD.toCharArray(), "10.0.0.4")
                        .user()
                        .orElseThrow()
                        .name());
    }

    @Test
    void theSixthRapidFailureForAUserIsThrottledEvenWithTheRightPasswordThenBacksOff() {
        for (int i = 1; i <= 5; i++) {
            assertEquals(
                    LoginService.FAILED,
                    logins.login("alice", ("guess" + i).toCharArray(), "10.0.1." + i)
                            .message(),
                    "attempt " + i);
        }
        LoginService.Outcome sixth = logins.login("alice", PASSWORD.toCharArray(), "10.0.1.6");
        assertTrue(sixth.user().isEmpty(), "throttled: the password is not even checked");
        assertTrue(sixth.message().startsWith("Too many failed logins"), sixth.message());
        clock.advance(Duration.ofSeconds(4));
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "10.0.1.9")
                        .message()
                        .startsWith("Too many"),
                "still within 5 s");
        assertTrue(
                logins.login("bob", "bobs-password".toCharArray(), "10.0.1.7")
                        .user()
                        .isPresent(),
                "other users are not affected");
        clock.advance(Duration.ofSeconds(6));
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "10.0.1.8").user().isPresent(), "after the backoff");
    }

    @Test
    void oneAddressTryingManyUserNamesIsThrottled() {
        for (int i = 1; i <= 5; i++) {
            logins.login("user" + i, "x".toCharArray(), "192.0.2.9");
        }
        assertTrue(logins.login("alice", PASSWORD.toCharArray(), "192.0.2.9")
                .message()
                .startsWith("Too many"));
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "192.0.2.10")
                        .user()
                        .isPresent(),
                "another address may log in");
    }

    @Test
    void aFloodOfWrongPasswordsFromFiftyAddressesNeverStopsTheRightPasswordFromAnAddressThatLoggedInBefore() {
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "10.2.0.1").user().isPresent(), "alice's own machine");
        for (int a = 1; a <= 50; a++) {
            for (int i = 0; i < 10; i++) {
                assertTrue(logins.login("alice", ("guess" + i).toCharArray(), "203.0.113." + a)
                        .user()
                        .isEmpty());
            }
        }
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "10.2.0.1").user().isPresent(),
                "at once, from her address");
        assertTrue(
                logins.login("alice", PASSWORD.toCharArray(), "10.2.0.2")
                        .message()
                        .startsWith("Too many"),
                "from an address she never used, the flood's per-user backoff holds: guessing spread over addresses is slowed");
        assertTrue(
                logins.login("alice", "guess".toCharArray(), "203.0.113.7")
                        .message()
                        .startsWith("Too many"),
                "each flooding address is throttled");
        assertTrue(
                logins.login("bob", "bobs-password".toCharArray(), "10.2.0.3")
                        .user()
                        .isPresent(),
                "others are untouched");
    }

    @Test
    void aSuccessfulLoginDoesNotClearTheUsersCountForOtherAddresses() {
        for (int i = 1; i <= 5; i++) {
            logins.login("alice", "x".toCharArray(), "203.0.114." + i);
        }
        assertTrue(logins.login("bob", "bobs-password".toCharArray(), "203.0.114.1")
                .user()
                .isPresent());
        assertTrue(logins.login("alice", PASSWORD.toCharArray(), "203.0.114.9")
                .message()
                .startsWith("Too many"));
    }

    @Test
    void atMostTwoPasswordChecksRunAtOnceAndTheRestAreToldToTryAgain() throws Exception {
        // a production-strength hash, so checks overlap
        LoginService strong = new LoginService(
                UserDirectory.of(Map.of("alice", "OPERATOR:" + PasswordHasher.hash(PASSWORD.toCharArray()))), clock);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(40);
        try {
            List<java.util.concurrent.Future<String>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String address = "198.18.0." + i;
                answers.add(pool.submit(() ->
                        strong.login("alice", "wrong".toCharArray(), address).message()));
            }
            int busy = 0;
            int failed = 0;
            for (var f : answers) {
                String m = f.get(120, java.util.concurrent.TimeUnit.SECONDS);
                busy += LoginService.BUSY.equals(m) ? 1 : 0;
                failed += LoginService.FAILED.equals(m) ? 1 : 0;
            }
            System.out.printf(
                    "40 concurrent wrong logins: %d checked, %d told to try again, peak %d checks at once%n",
                    failed, busy, strong.peakConcurrentChecks());
            assertEquals(40, busy + failed);
            assertEquals(2, strong.peakConcurrentChecks());
            assertTrue(busy > 0, "the gate turned some away");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void attemptsAreAuditedWithoutPasswordsOrUnknownNames() {
        logins.login("alice", "typed-secret-1".toCharArray(), "10.1.1.1");
        logins.login("hunter2-typed-as-name", "x".toCharArray(), "10.1.1.2");
        logins.login("alice", PASSWORD.toCharArray(), "10.1.1.3");
        String all = String.join("\n", audit);
        assertTrue(all.contains("FAILED for user 'alice' from 10.1.1.1"), all);
        assertTrue(all.contains("FAILED for an unknown user name (not logged) from 10.1.1.2"), all);
        assertTrue(all.contains("login OK: user 'alice' (OPERATOR) from 10.1.1.3"), all);
        assertFalse(all.contains("typed-secret-1") || all.contains("hunter2") || all.contains(PASSWORD), all);
    }

    static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
