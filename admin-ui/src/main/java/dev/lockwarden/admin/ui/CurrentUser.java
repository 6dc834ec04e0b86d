package dev.lockwarden.admin.ui;

import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinSession;
import dev.lockwarden.admin.security.AdminUser;
import java.util.Optional;

/** The logged-in user of the current Vaadin session. */
public final class CurrentUser {
    private CurrentUser() {}

    /** The user, if logged in. */
    public static Optional<AdminUser> get() {
        VaadinSession session = VaadinSession.getCurrent();
        return session == null ? Optional.empty() : Optional.ofNullable(session.getAttribute(AdminUser.class));
    }

    private static final String MUST_CHANGE = "lockwarden.mustChangePassword";

    /** Logs {@code user} in, under a new HTTP session id (no session fixation). */
    public static void login(AdminUser user) {
        login(user, false);
    }

    /** The same; with {@code mustChangePassword} every view leads to the password change first. */
    public static void login(AdminUser user, boolean mustChangePassword) {
        VaadinService.reinitializeSession(VaadinRequest.getCurrent());
        VaadinSession.getCurrent().setAttribute(AdminUser.class, user);
        VaadinSession.getCurrent().setAttribute(MUST_CHANGE, mustChangePassword ? Boolean.TRUE : null);
        IdleTimeout.touch(VaadinSession.getCurrent(), java.time.Clock.systemUTC());
    }

    /** Whether the user must set a new password before anything else. */
    public static boolean mustChangePassword() {
        VaadinSession session = VaadinSession.getCurrent();
        return session != null && Boolean.TRUE.equals(session.getAttribute(MUST_CHANGE));
    }

    /** The password was changed: the views open. */
    public static void passwordChanged() {
        VaadinSession.getCurrent().setAttribute(MUST_CHANGE, null);
    }

    /** Logs out: drops the user and invalidates the HTTP session. */
    public static void logout() {
        VaadinSession session = VaadinSession.getCurrent();
        session.setAttribute(AdminUser.class, null);
        session.getSession().invalidate();
    }
}
