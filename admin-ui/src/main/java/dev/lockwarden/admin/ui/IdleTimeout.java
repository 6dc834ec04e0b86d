package dev.lockwarden.admin.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.server.VaadinSession;

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
        ui.getElement().addEventListener("click", e -> touch(ui.getSession(), clock));
        ui.getElement().addEventListener("keydown", e -> touch(ui.getSession(), clock));
        ui.addBeforeEnterListener(e -> {
            if (CurrentUser.get().isPresent()) {
                if (expired(ui.getSession())) {
                    CurrentUser.logout();
                    ui.getPage().setLocation("login?expired");
                } else {
                    touch(ui.getSession(), clock);
                }
            }
        });
        ui.addPollListener(e -> {
            if (CurrentUser.get().isPresent() && expired(ui.getSession())) {
                CurrentUser.logout();
                ui.getPage().setLocation("login?expired");
            }
        });
    }

    boolean expired(VaadinSession session) {
        Object last = session.getAttribute(LAST_ACTIVITY);
        return !(last instanceof Instant at) || Duration.between(at, clock.instant()).compareTo(timeout) > 0;
    }
}
