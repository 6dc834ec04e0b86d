package dev.lockwarden.admin.ui.login;

import java.util.Optional;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.login.AbstractLogin.LoginEvent;
import com.vaadin.flow.component.login.LoginForm;
import com.vaadin.flow.component.orderedlayout.FlexComponent.Alignment;
import com.vaadin.flow.component.orderedlayout.FlexComponent.JustifyContentMode;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;

import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.admin.ui.CurrentUser;
import dev.lockwarden.admin.ui.locks.LocksView;

/** The login page; every other view redirects here until a user has logged in. */
@Route("login")
@PageTitle("Log in · Lockwarden")
public final class LoginView extends VerticalLayout {
    private static final System.Logger LOG = System.getLogger(LoginView.class.getName());
    private final UserDirectory users;
    private final LoginForm form = new LoginForm();

    public LoginView(UserDirectory users) {
        this.users = users;
        setSizeFull();
        setAlignItems(Alignment.CENTER);
        setJustifyContentMode(JustifyContentMode.CENTER);
        form.setForgotPasswordButtonVisible(false);
        form.addLoginListener(this::login);
        add(new H1("Lockwarden"), new Paragraph("Distributed lock dashboard"), form);
    }

    private void login(LoginEvent event) {
        Optional<AdminUser> user = users.authenticate(event.getUsername(), event.getPassword().toCharArray());
        if (user.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "failed dashboard login for user name ''{0}''", printable(event.getUsername()));
            form.setError(true);
            return;
        }
        LOG.log(System.Logger.Level.INFO, "dashboard login: {0} ({1})", user.get().name(), user.get().role());
        CurrentUser.login(user.get());
        UI.getCurrent().navigate(LocksView.class);
    }

    /** A user-typed name made safe for one log line. */
    private static String printable(String name) {
        String s = name == null ? "" : name.replaceAll("\\p{Cntrl}", "?");
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }
}
