package dev.lockwarden.admin.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Backoff after failed logins, counted per (user name, client address), per address and per user
 * name: the first {@value #FREE_FAILURES} failures within {@link #WINDOW} cost nothing; from then
 * on each failure doubles the wait (5 s, 10 s, 20 s, ... up to {@link #MAX_WAIT}) during which an
 * attempt on that key is refused without checking the password.
 * <p>
 * The per-user count stops guessing spread over many addresses, but it would also let anyone lock
 * the on-call operator out with a wrong password now and then. So it does not apply from an
 * address the user logged in from before: failures elsewhere never keep a user out of their own
 * machine. The tables are bounded, so a flood of made-up names or addresses cannot exhaust memory.
 */
public final class LoginThrottle {
    static final int FREE_FAILURES = 5;
    static final Duration WINDOW = Duration.ofMinutes(15);
    static final Duration MAX_WAIT = Duration.ofMinutes(15);
    static final long BASE_WAIT_SECONDS = 5;
    private static final int MAX_KEYS = 10_000;

    private final Clock clock;
    private final Map<String, Failures> byKey = bounded();
    /** (user, address) pairs that logged in successfully, newest last. */
    private final Map<String, Instant> knownGood = bounded();

    public LoginThrottle(Clock clock) {
        this.clock = clock;
    }

    /** How long this user name from this address must still wait (zero = may try now). */
    public synchronized Duration waitFor(String user, String address) {
        Instant now = clock.instant();
        Duration wait = longer(waitOf(pair(user, address), now), waitOf(key("addr", address), now));
        return knownGood.containsKey(pair(user, address)) ? wait : longer(wait, waitOf(key("user", user), now));
    }

    public synchronized void failed(String user, String address) {
        Instant now = clock.instant();
        for (String k : new String[] {pair(user, address), key("addr", address), key("user", user)}) {
            Failures f = byKey.get(k);
            if (f == null || Duration.between(f.last, now).compareTo(WINDOW) > 0) {
                f = new Failures();
                byKey.put(k, f);
            }
            f.count++;
            f.last = now;
        }
    }

    /**
     * Clears the pair and the address, and remembers the pair as known good. The user's own count
     * stays: guessing from elsewhere goes on being slowed down.
     */
    public synchronized void succeeded(String user, String address) {
        byKey.remove(pair(user, address));
        byKey.remove(key("addr", address));
        knownGood.put(pair(user, address), clock.instant());
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

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String pair(String user, String address) {
        return key("pair", (user == null ? "" : user) + "\n" + address);
    }

    private static String key(String kind, String value) {
        return kind + ":" + (value == null ? "" : value);
    }

    private static <V> Map<String, V> bounded() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > MAX_KEYS;
            }
        };
    }

    private static final class Failures {
        int count;
        Instant last;
    }
}
