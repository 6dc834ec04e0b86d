package dev.lockwarden.admin.ui.clients;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.grid.ColumnTextAlign;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import dev.lockwarden.ClientInfo;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockException;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.service.AccessDeniedException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.ui.CurrentUser;
import dev.lockwarden.admin.ui.MainLayout;
import dev.lockwarden.admin.ui.locks.Formats;
import java.util.List;

/**
 * Client JVMs: live ones by heartbeat and dead ones that still own locks. Operators can release all
 * locks of a dead client (one audit record per lock).
 */
@Route(value = "clients", layout = MainLayout.class)
@PageTitle("Clients · Lockwarden")
public final class ClientsView extends VerticalLayout {
    private final AdminService service;
    private final AdminUser user;
    private final Grid<ClientInfo> grid = new Grid<>();
    private final Span status = new Span();

    public ClientsView(AdminService service) {
        this.service = service;
        this.user =
                CurrentUser.get().orElseThrow(() -> new IllegalStateException("ClientsView needs a logged-in user"));
        setSizeFull();
        status.setId("clients-status");
        grid.setId("clients");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.addColumn(c -> c.alive() ? "alive" : "DEAD")
                .setHeader("State")
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(ClientInfo::application)
                .setHeader("Application")
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(ClientInfo::host).setHeader("Host").setAutoWidth(true);
        grid.addColumn(ClientInfo::pid).setHeader("PID").setAutoWidth(true);
        grid.addColumn(c -> orDash(c.version()))
                .setHeader("Lockwarden")
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(c -> orDash(c.javaVersion()))
                .setHeader("Java")
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(ClientInfo::locksHeld)
                .setHeader("Locks held")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(c -> c.alive()
                        ? "beat within the last "
                                + Formats.ttl(java.time.Duration.ofMillis(
                                        Math.max(0, 15_000 - c.heartbeatTtl().toMillis())))
                        : "none")
                .setHeader("Last beat")
                .setAutoWidth(true);
        grid.addColumn(ClientInfo::jvmId).setHeader("JVM id").setAutoWidth(true);
        if (user.role().mayForceRelease()) {
            grid.addComponentColumn(this::releaseAllButton).setHeader("").setAutoWidth(true);
        }
        add(new Button("Reload", e -> load()), status, grid);
        load();
    }

    /** A dead client's version is unknown: only the heartbeat carries it. */
    private static String orDash(String s) {
        return s.isEmpty() ? "—" : s;
    }

    private com.vaadin.flow.component.Component releaseAllButton(ClientInfo c) {
        if (c.alive() || c.locksHeld() == 0) {
            return new Span();
        }
        Button b = new Button("Release all " + c.locksHeld() + " locks…", e -> confirm(c));
        b.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_SMALL);
        b.getElement().setAttribute("data-jvm", c.jvmId());
        b.addClassName("release-all");
        return b;
    }

    private void confirm(ClientInfo c) {
        ConfirmDialog d = new ConfirmDialog(
                "Release every lock of dead client " + c.application() + " @ " + c.host() + "?",
                "Its heartbeat is gone. Each of its " + c.locksHeld()
                        + " locks is force-released (fence raised, one audit "
                        + "record per lock) unless it changed hands meanwhile.",
                "Release all",
                e -> releaseAll(c));
        d.setCancelable(true);
        d.setConfirmButtonTheme("error primary");
        d.open();
    }

    private void releaseAll(ClientInfo c) {
        try {
            List<ForceReleaseResult> r = service.releaseAllOf(c.jvmId(), user);
            status.setText("Released "
                    + r.stream().filter(ForceReleaseResult::released).count() + " of " + r.size() + " locks of "
                    + c.jvmId());
        } catch (AccessDeniedException | IllegalStateException | LockException e) {
            status.setText(e.getMessage());
        }
        load();
    }

    private void load() {
        try {
            List<ClientInfo> clients = service.clients();
            grid.setItems(clients);
            long dead = clients.stream().filter(c -> !c.alive()).count();
            if (!status.getText().startsWith("Released")) {
                status.setText(clients.size() - dead + " live clients, " + dead + " dead clients owning locks");
            }
        } catch (LockException e) {
            status.setText("Cannot read clients: " + e.getMessage());
        }
    }
}
