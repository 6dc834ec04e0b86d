package dev.lockwarden.admin.ui;

import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterListener;

import dev.lockwarden.admin.ui.locks.LocksView;
import dev.lockwarden.admin.ui.login.LoginView;

/**
 * Sends every navigation without a logged-in user to the login view (which opens the requested page
 * after the login, see {@link AfterLogin}), and logged-in users away from it.
 */
final class LoginGuard implements BeforeEnterListener {
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        boolean toLogin = LoginView.class.equals(event.getNavigationTarget());
        boolean loggedIn = CurrentUser.get().isPresent();
        if (!loggedIn && !toLogin) {
            AfterLogin.remember(event.getLocation());
            event.forwardTo(LoginView.class);
        } else if (loggedIn && toLogin) {
            event.forwardTo(LocksView.class);
        }
    }
}
