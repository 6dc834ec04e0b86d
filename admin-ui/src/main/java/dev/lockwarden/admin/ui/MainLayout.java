package dev.lockwarden.admin.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.H2;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.FlexComponent;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.RouterLayout;
import com.vaadin.flow.router.RouterLink;
import dev.lockwarden.admin.service.HealthService;
import dev.lockwarden.admin.ui.activity.ActivityView;
import dev.lockwarden.admin.ui.audit.AuditView;
import dev.lockwarden.admin.ui.clients.ClientsView;
import dev.lockwarden.admin.ui.fences.FencesView;
import dev.lockwarden.admin.ui.locks.LocksView;

/** Title, navigation between the views, who is signed in, log out, and the health strip. */
public final class MainLayout extends VerticalLayout implements RouterLayout {

    public MainLayout(HealthService health) {
        setSizeFull();
        String who = CurrentUser.get()
                .map(u -> "Signed in as " + u.name() + " (" + u.role() + ")")
                .orElse("");
        Span signedIn = new Span(who);
        signedIn.setId("signed-in");
        Button logout = new Button("Log out", e -> {
            CurrentUser.logout();
            UI.getCurrent().getPage().setLocation("login");
        });
        logout.setId("logout");
        HorizontalLayout nav = new HorizontalLayout(
                new H2("Lockwarden"),
                link("Locks", LocksView.class, "nav-locks"),
                link("Fencing counters", FencesView.class, "nav-fences"),
                link("Clients", ClientsView.class, "nav-clients"),
                link("Audit", AuditView.class, "nav-audit"),
                link("Activity", ActivityView.class, "nav-activity"),
                signedIn,
                logout);
        nav.setDefaultVerticalComponentAlignment(FlexComponent.Alignment.BASELINE);
        add(nav, new HealthStrip(health));
    }

    private static RouterLink link(String text, Class<? extends com.vaadin.flow.component.Component> view, String id) {
        RouterLink l = new RouterLink(text, view);
        l.setId(id);
        return l;
    }
}
