package dev.lockwarden.admin.security;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * Checks a login: throttling first (see {@link LoginThrottle}), then the password, at most
 * {@value PasswordCheckGate#CONCURRENT} at a time. An unknown user, a wrong and an empty password
 * all get the same answer. Every attempt is written to the audit log ({@value #AUDIT_LOGGER}) with
 * the address; the typed password never is, and a typed user name only when it is a real user
 * (people type their password into the name field).
 */
public final class LoginService {
    /** System.Logger name of the login audit log. */
    public static final String AUDIT_LOGGER = "dev.lockwarden.admin.audit.login";
    /** The answer to every failed login (unknown user, wrong or empty password). */
    public static final String FAILED = "Incorrect user name or password.";
    /** The answer when the password checks are all taken. */
    public static final String BUSY =
            "The dashboard is checking many logins at the moment: try again in a few seconds.";
    /** The shortest new password accepted. */
    public static final int MIN_NEW_PASSWORD = 12;

    private static final System.Logger AUDIT = System.getLogger(AUDIT_LOGGER);

    private final UserDirectory users;
    private final LoginThrottle throttle;
    private final PasswordCheckGate gate = new PasswordCheckGate();

    public LoginService(UserDirectory users, Clock clock) {
        this.users = users;
        this.throttle = new LoginThrottle(clock);
    }

    /**
     * The result of a login attempt.
     *
     * @param user    the user on success
     * @param message what to show on failure
     * @param mustChangePassword the user logged in with a generated password and must set their own first
     */
    public record Outcome(Optional<AdminUser> user, String message, boolean mustChangePassword) {}

    public Outcome login(String name, char[] password, String address) {
        String who = users.knows(name) ? "user '" + name + "'" : "an unknown user name (not logged)";
        try {
            Duration wait = throttle.waitFor(name, address);
            if (!wait.isZero()) {
                AUDIT.log(
                        System.Logger.Level.WARNING,
                        "dashboard login THROTTLED for {0} from {1} (retry in {2} s)",
                        who,
                        address,
                        Math.max(1, wait.toSeconds()));
                return failure(
                        "Too many failed logins: wait " + Math.max(1, wait.toSeconds()) + " s before trying again.");
            }
            char[] typed = password == null || password.length == 0 ? null : password;
            Optional<Optional<AdminUser>> checked = gate.run(() -> typed == null
                    ? users.authenticate(name, "\0".toCharArray()).filter(u -> false) // same cost as a real check
                    : users.authenticate(name, typed));
            if (checked.isEmpty()) {
                AUDIT.log(System.Logger.Level.WARNING, "dashboard login BUSY for {0} from {1}", who, address);
                return failure(BUSY);
            }
            Optional<AdminUser> user = checked.get();
            if (user.isEmpty()) {
                throttle.failed(name, address);
                AUDIT.log(System.Logger.Level.WARNING, "dashboard login FAILED for {0} from {1}", who, address);
                return failure(FAILED);
            }
            throttle.succeeded(name, address);
            AUDIT.log(
                    System.Logger.Level.INFO,
                    "dashboard login OK: user ''{0}'' ({1}) from {2}",
                    user.get().name(),
                    user.get().role(),
                    address);
            return new Outcome(user, null, users.mustChangePassword(name));
        } finally {
            if (password != null) {
                Arrays.fill(password, '\0');
            }
        }
    }

    /**
     * Sets a logged-in user's new password.
     *
     * @return empty when it was changed, else what to fix
     */
    public Optional<String> changePassword(AdminUser user, char[] password, char[] repeat) {
        try {
            if (password.length < MIN_NEW_PASSWORD) {
                return Optional.of("Use at least " + MIN_NEW_PASSWORD + " characters.");
            }
            if (!Arrays.equals(password, repeat)) {
                return Optional.of("The two passwords differ.");
            }
            users.changePassword(user.name(), PasswordHasher.hash(password));
            AUDIT.log(System.Logger.Level.INFO, "dashboard password changed by user ''{0}''", user.name());
            return Optional.empty();
        } finally {
            Arrays.fill(password, '\0');
            Arrays.fill(repeat, '\0');
        }
    }

    /** The most password checks that ever ran at once. */
    public int peakConcurrentChecks() {
        return gate.peak();
    }

    private static Outcome failure(String message) {
        return new Outcome(Optional.empty(), message, false);
    }
}
