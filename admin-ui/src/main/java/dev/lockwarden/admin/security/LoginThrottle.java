package dev.lockwarden.admin.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Backoff after failed logins, counted per user name and per client address: the first
 * {@value #FREE_FAILURES} failures within {@link #WINDOW} cost nothing; from then on each failure
 * doubles the wait (5 s, 10 s, 20 s, ... up to {@link #MAX_WAIT}) during which every attempt on that key is refused
 * without checking the password. A successful login clears its user name and address. The tables
 * are bounded, so a flood of made-up names cannot exhaust memory.
 */
public final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final Duration WINDOW = Duration.ofMinutes(15);
    static final Duration MAX_WAIT = Duration.ofMinutes(15);
    static final long BASE_WAIT_SECONDS = 5;
    private static final int MAX_KEYS = 10_000;

    private final Clock clock;
    private final Map<String, Failures> byKey = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
            return size() > MAX_KEYS;
        }
    };

    public LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** How long the user name or address must still wait (zero = may try now). */
    public synchronized Duration waitFor(String user, String address) {
        Instant now = clock.instant();
        Duration a = waitOf(key("user", user), now);
        Duration b = waitOf(key("addr", address), now);
        return a.compareTo(b) >= 0 ? a : b;
    }

    public synchronized void failed(String user, String address) {
        Instant now = clock.instant();
        for (String k : new String[] {key("user", user), key("addr", address)}) {
            Failures f = byKey.get(k);
            if (f == null || Duration.between(f.last, now).compareTo(WINDOW) > 0) {
                f = new Failures();
                byKey.put(k, f);
            }
            f.count++;
            f.last = now;
        }
    }

    public synchronized void succeeded(String user, String address) {
        byKey.remove(key("user", user));
        byKey.remove(key("addr", address));
    }

    private Duration waitOf(String key, Instant now) {
        Failures f = byKey.get(key);
        if (f == null || f.count < FREE_FAILURES) {
            return Duration.ZERO;
        }
        long seconds = BASE_WAIT_SECONDS << Math.min(20, f.count - FREE_FAILURES);
        Duration backoff = Duration.ofSeconds(seconds).compareTo(MAX_WAIT) > 0 ? MAX_WAIT : Duration.ofSeconds(seconds);
        Duration left = Duration.between(now, f.last.plus(backoff));
        return left.isNegative() ? Duration.ZERO : left;
    }

    private static String key(String kind, String value) {
        return kind + ":" + (value == null ? "" : value);
    }

    private static final class Failures {
        int count;
        Instant last;
    }
}
