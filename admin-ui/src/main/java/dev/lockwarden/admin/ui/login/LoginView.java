package dev.lockwarden.admin.ui.login;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.login.AbstractLogin.LoginEvent;
import com.vaadin.flow.component.login.LoginForm;
import com.vaadin.flow.component.login.LoginI18n;
import com.vaadin.flow.component.orderedlayout.FlexComponent.Alignment;
import com.vaadin.flow.component.orderedlayout.FlexComponent.JustifyContentMode;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.server.VaadinRequest;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.ui.AfterLogin;
import dev.lockwarden.admin.ui.CurrentUser;

/** The login page; every other view redirects here until a user has logged in, and opens after it. */
@Route("login")
@PageTitle("Log in · Lockwarden")
public final class LoginView extends VerticalLayout implements BeforeEnterObserver {
    private final LoginService logins;
    private final LoginForm form = new LoginForm();

    public LoginView(LoginService logins) {
        this.logins = logins;
        setSizeFull();
        setAlignItems(Alignment.CENTER);
        setJustifyContentMode(JustifyContentMode.CENTER);
        form.setForgotPasswordButtonVisible(false);
        form.addLoginListener(this::login);
        add(new H1("Lockwarden"), new Paragraph("Distributed lock dashboard"), form);
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        if (event.getLocation().getQueryParameters().getParameters().containsKey("expired")) {
            Paragraph expired = new Paragraph("You were logged out after a period without activity.");
            expired.setId("session-expired");
            addComponentAtIndex(2, expired);
        }
    }

    private void login(LoginEvent event) {
        String address = VaadinRequest.getCurrent() == null
                ? "?"
                : VaadinRequest.getCurrent().getRemoteAddr();
        LoginService.Outcome outcome =
                logins.login(event.getUsername(), event.getPassword().toCharArray(), address);
        if (outcome.user().isEmpty()) {
            LoginI18n i18n = LoginI18n.createDefault();
            i18n.getErrorMessage().setTitle(outcome.message());
            i18n.getErrorMessage().setMessage("");
            form.setI18n(i18n);
            form.setError(true);
            return;
        }
        CurrentUser.login(outcome.user().get(), outcome.mustChangePassword());
        if (outcome.mustChangePassword()) {
            UI.getCurrent().navigate(ChangePasswordView.class);
        } else {
            AfterLogin.navigate(UI.getCurrent());
        }
    }
}
