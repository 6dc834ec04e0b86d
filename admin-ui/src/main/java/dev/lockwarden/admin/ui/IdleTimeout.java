package dev.lockwarden.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.server.VaadinSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Logs a session out after a period without user activity. The views refresh every second by UI
 * polling, and every poll is a request, so the servlet session's own timeout would never fire: here
 * only clicks, key presses and navigation count as activity, and each poll checks the idle time.
 */
final class IdleTimeout {
    static final int POLL_MS = 1000;
    private static final String LAST_ACTIVITY = "lockwarden.lastActivity";

    private final Duration timeout;
    private final Clock clock;

    IdleTimeout(Duration timeout, Clock clock) {
        this.timeout = timeout;
        this.clock = clock;
    }

    /** Records activity now (at login). */
    static void touch(VaadinSession session, Clock clock) {
        session.setAttribute(LAST_ACTIVITY, clock.instant());
    }

    void install(UI ui) {
        ui.setPollInterval(POLL_MS);
        ui.getElement().addEventListener("click", e -> activity(ui));
        ui.getElement().addEventListener("keydown", e -> activity(ui));
        ui.addBeforeEnterListener(e -> activity(ui));
        ui.addPollListener(e -> {
            if (CurrentUser.get().isPresent() && expired(ui.getSession())) {
                logOut(ui);
            }
        });
    }

    /**
     * A click, key or navigation: counts only if the session has not expired already — a click
     * that arrives after the timeout (before the next poll noticed it) must not bring it back.
     */
    private void activity(UI ui) {
        if (CurrentUser.get().isEmpty()) {
            return;
        }
        Instant next = afterActivity(ui.getSession().getAttribute(LAST_ACTIVITY), clock.instant(), timeout);
        if (next == null) {
            logOut(ui);
        } else {
            ui.getSession().setAttribute(LAST_ACTIVITY, next);
        }
    }

    /** The last activity after one at {@code now}; null when the session had already expired (then it stays so). */
    static Instant afterActivity(Object last, Instant now, Duration timeout) {
        return expired(last, now, timeout) ? null : now;
    }

    private static boolean expired(Object last, Instant now, Duration timeout) {
        return !(last instanceof Instant at) || Duration.between(at, now).compareTo(timeout) > 0;
    }

    private static void logOut(UI ui) {
        CurrentUser.logout();
        ui.getPage().setLocation("login?expired");
    }

    boolean expired(VaadinSession session) {
        return expired(session.getAttribute(LAST_ACTIVITY), clock.instant(), timeout);
    }
}
