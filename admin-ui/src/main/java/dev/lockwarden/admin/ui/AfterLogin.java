package dev.lockwarden.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.router.Location;
import com.vaadin.flow.server.VaadinSession;
import dev.lockwarden.admin.ui.locks.LocksView;
import java.util.Optional;

/**
 * Where a visitor who was sent to the login page wanted to go, e.g. a lock's deep link pasted into a
 * fresh browser: kept in the Vaadin session (so it is always a path of this dashboard, never a
 * redirect elsewhere) and opened after the login.
 */
public final class AfterLogin {
    private static final String TARGET = "lockwarden.afterLogin";

    private AfterLogin() {}

    /** Remembers {@code target} (path and query) for the login that follows. */
    static void remember(Location target) {
        VaadinSession.getCurrent().setAttribute(TARGET, target);
    }

    /** Navigates to the remembered target, or to the Locks view, and forgets the target. */
    public static void navigate(UI ui) {
        Optional<Location> target =
                Optional.ofNullable((Location) ui.getSession().getAttribute(TARGET));
        ui.getSession().setAttribute(TARGET, null);
        target.filter(t -> !t.getPath().isEmpty())
                .ifPresentOrElse(
                        t -> ui.navigate(t.getPath(), t.getQueryParameters()), () -> ui.navigate(LocksView.class));
    }
}
