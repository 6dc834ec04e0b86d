package dev.lockwarden.admin.ui;

import java.util.Optional;

import com.vaadin.flow.server.VaadinRequest;
import com.vaadin.flow.server.VaadinService;
import com.vaadin.flow.server.VaadinSession;

import dev.lockwarden.admin.security.AdminUser;

/** The logged-in user of the current Vaadin session. */
public final class CurrentUser {
    private CurrentUser() {
    }

    /** The user, if logged in. */
    public static Optional<AdminUser> get() {
        VaadinSession session = VaadinSession.getCurrent();
        return session == null ? Optional.empty() : Optional.ofNullable(session.getAttribute(AdminUser.class));
    }

    /** Logs {@code user} in, under a new HTTP session id (no session fixation). */
    public static void login(AdminUser user) {
        VaadinService.reinitializeSession(VaadinRequest.getCurrent());
        VaadinSession.getCurrent().setAttribute(AdminUser.class, user);
        IdleTimeout.touch(VaadinSession.getCurrent(), java.time.Clock.systemUTC());
    }

    /** Logs out: drops the user and invalidates the HTTP session. */
    public static void logout() {
        VaadinSession session = VaadinSession.getCurrent();
        session.setAttribute(AdminUser.class, null);
        session.getSession().invalidate();
    }
}
