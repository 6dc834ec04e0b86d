package dev.lockwarden.admin.ui;

import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterListener;
import dev.lockwarden.admin.ui.locks.LocksView;
import dev.lockwarden.admin.ui.login.ChangePasswordView;
import dev.lockwarden.admin.ui.login.LoginView;

/**
 * Sends every navigation without a logged-in user to the login view (which opens the requested page
 * after the login, see {@link AfterLogin}), a user with a generated password to the password
 * change, and logged-in users away from the login view.
 */
final class LoginGuard implements BeforeEnterListener {
    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        boolean toLogin = LoginView.class.equals(event.getNavigationTarget());
        boolean loggedIn = CurrentUser.get().isPresent();
        if (!loggedIn && !toLogin) {
            AfterLogin.remember(event.getLocation());
            event.forwardTo(LoginView.class);
        } else if (loggedIn && CurrentUser.mustChangePassword()) {
            if (!ChangePasswordView.class.equals(event.getNavigationTarget())) {
                AfterLogin.remember(event.getLocation());
                event.forwardTo(ChangePasswordView.class);
            }
        } else if (loggedIn && toLogin) {
            event.forwardTo(LocksView.class);
        }
    }
}
