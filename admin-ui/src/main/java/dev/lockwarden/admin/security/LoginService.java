package dev.lockwarden.admin.security;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * Checks a login: throttling first (per user name and per client address), then the password. An
 * unknown user, a wrong and an empty password all get the same answer. Every attempt is written to
 * the audit log ({@value #AUDIT_LOGGER}) with the address; the typed password never is, and a typed
 * user name only when it is a real user (people type their password into the name field).
 */
public final class LoginService {
    /** System.Logger name of the login audit log. */
    public static final String AUDIT_LOGGER = "dev.lockwarden.admin.audit.login";
    /** The answer to every failed login (unknown user, wrong or empty password). */
    public static final String FAILED = "Incorrect user name or password.";
    private static final System.Logger AUDIT = System.getLogger(AUDIT_LOGGER);

    private final UserDirectory users;
    private final LoginThrottle throttle;

    public LoginService(UserDirectory users, Clock clock) {
        this.users = users;
        this.throttle = new LoginThrottle(clock);
    }

    /**
     * The result of a login attempt.
     *
     * @param user    the user on success
     * @param message what to show on failure
     */
    public record Outcome(Optional<AdminUser> user, String message) {
    }

    public Outcome login(String name, char[] password, String address) {
        String who = users.knows(name) ? "user '" + name + "'" : "an unknown user name (not logged)";
        try {
            Duration wait = throttle.waitFor(name, address);
            if (!wait.isZero()) {
                AUDIT.log(System.Logger.Level.WARNING, "dashboard login THROTTLED for {0} from {1} (retry in {2} s)",
                        who, address, Math.max(1, wait.toSeconds()));
                return new Outcome(Optional.empty(), "Too many failed logins: wait " + Math.max(1, wait.toSeconds())
                        + " s before trying again.");
            }
            Optional<AdminUser> user = password == null || password.length == 0
                    ? users.authenticate(name, "\0".toCharArray()).filter(u -> false) // same cost as a real check
                    : users.authenticate(name, password);
            if (user.isEmpty()) {
                throttle.failed(name, address);
                AUDIT.log(System.Logger.Level.WARNING, "dashboard login FAILED for {0} from {1}", who, address);
                return new Outcome(Optional.empty(), FAILED);
            }
            throttle.succeeded(name, address);
            AUDIT.log(System.Logger.Level.INFO, "dashboard login OK: user ''{0}'' ({1}) from {2}",
                    user.get().name(), user.get().role(), address);
            return new Outcome(user, null);
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
        }
    }
}
