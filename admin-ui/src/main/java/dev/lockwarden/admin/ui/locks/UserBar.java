package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;

import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.ui.CurrentUser;

/** Title, who is signed in, and log out. */
final class UserBar extends HorizontalLayout {

    UserBar(AdminUser user) {
        Span who = new Span("Signed in as " + user.name() + " (" + user.role() + ")");
        who.setId("signed-in");
        Button logout = new Button("Log out", e -> {
            CurrentUser.logout();
            UI.getCurrent().getPage().setLocation("login");
        });
        logout.setId("logout");
        add(new H2("Held locks"), who, logout);
        setDefaultVerticalComponentAlignment(Alignment.BASELINE);
    }
}
