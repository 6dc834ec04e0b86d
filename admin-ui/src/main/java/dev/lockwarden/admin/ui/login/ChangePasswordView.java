package dev.lockwarden.admin.ui.login;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.html.H1;
import com.vaadin.flow.component.html.Paragraph;
import com.vaadin.flow.component.orderedlayout.FlexComponent.Alignment;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.PasswordField;
import com.vaadin.flow.router.BeforeEnterEvent;
import com.vaadin.flow.router.BeforeEnterObserver;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.ui.AfterLogin;
import dev.lockwarden.admin.ui.CurrentUser;
import dev.lockwarden.admin.ui.locks.LocksView;

/**
 * Where a user who logged in with the generated first-run password sets their own; no other view
 * opens before that (see the login guard).
 */
@Route("password")
@PageTitle("New password · Lockwarden")
public final class ChangePasswordView extends VerticalLayout implements BeforeEnterObserver {
    private final LoginService logins;
    private final PasswordField password = new PasswordField("New password");
    private final PasswordField repeat = new PasswordField("New password again");
    private final Paragraph problem = new Paragraph();

    public ChangePasswordView(LoginService logins) {
        this.logins = logins;
        setAlignItems(Alignment.CENTER);
        password.setId("new-password");
        repeat.setId("repeat-password");
        problem.setId("password-problem");
        Button save = new Button("Set password", e -> save());
        save.setId("set-password");
        save.addThemeVariants(ButtonVariant.LUMO_PRIMARY);
        add(
                new H1("Choose your password"),
                new Paragraph("You logged in with the generated first-run password. Choose "
                        + "your own (at least " + LoginService.MIN_NEW_PASSWORD
                        + " characters); the file holding the generated "
                        + "one is deleted."),
                password,
                repeat,
                save,
                problem);
    }

    @Override
    public void beforeEnter(BeforeEnterEvent event) {
        if (CurrentUser.get().isPresent() && !CurrentUser.mustChangePassword()) {
            event.forwardTo(LocksView.class);
        }
    }

    private void save() {
        var result = logins.changePassword(
                CurrentUser.get().orElseThrow(),
                password.getValue().toCharArray(),
                repeat.getValue().toCharArray());
        password.clear();
        repeat.clear();
        if (result.isPresent()) {
            problem.setText(result.get());
            return;
        }
        CurrentUser.passwordChanged();
        AfterLogin.navigate(UI.getCurrent());
    }
}
