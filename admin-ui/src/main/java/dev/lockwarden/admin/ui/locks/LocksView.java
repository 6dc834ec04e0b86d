package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.UI;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.BeforeEvent;
import com.vaadin.flow.router.HasUrlParameter;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.router.RouteAlias;
import com.vaadin.flow.router.WildcardParameter;
import com.vaadin.flow.shared.Registration;
import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockException;
import dev.lockwarden.LockInfo;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.service.AccessDeniedException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.HealthService;
import dev.lockwarden.admin.service.LockChangedException;
import dev.lockwarden.admin.ui.CurrentUser;
import dev.lockwarden.admin.ui.MainLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Held locks. Each poll (1 s) re-reads only the rows shown ({@link AdminService#refresh}); the scan
 * ({@link LockScan}) runs on filter changes, "Load more", "Rescan" and every {@value #RESCAN_EVERY_POLLS} s
 * for new locks, in the background until it fills the page or has seen every key.
 * {@code /locks/<name>} opens one lock's details (a link to paste into an incident channel).
 */
@Route(value = "locks", layout = MainLayout.class)
@RouteAlias(value = "", layout = MainLayout.class)
@PageTitle("Locks · Lockwarden")
public final class LocksView extends VerticalLayout implements HasUrlParameter<String> {
    private static final int EVENTS_EVERY_POLLS = 5;
    private static final int RESCAN_EVERY_POLLS = 10;

    private final AdminService service;
    private final AdminUser user;
    private final FilterBar filters = new FilterBar(this::filtersChanged);
    private final LockGrid grid;
    private final LockScan scan;
    private final Span status;
    private final LockDetails details;
    private final List<LockInfo> shown = new ArrayList<>();
    private Registration polling;
    private int polls;
    private String selected;

    public LocksView(AdminService service, HealthService health) {
        this.service = service;
        this.user = CurrentUser.get().orElseThrow(() -> new IllegalStateException("LocksView needs a logged-in user"));
        this.grid = new LockGrid(service.longHeld());
        this.details = new LockDetails(user.role().mayForceRelease(), this::confirmRelease);
        setSizeFull();
        setPadding(false);
        grid.addSelectionListener(e -> e.getFirstSelectedItem().ifPresent(i -> select(i.name())));
        this.scan = new LockScan(
                service,
                filters::query,
                this::show,
                () -> health.held().map(h -> h.text()).orElse(""));
        this.status = scan.status;
        Button rescan = new Button("Rescan", e -> scan.rescan());
        rescan.setId("rescan");
        VerticalLayout list = new VerticalLayout(grid, new HorizontalLayout(scan.loadMore, scan.keepScanning, rescan));
        list.setMinWidth("0"); // the grid scrolls sideways rather than push the details off the page
        HorizontalLayout body = new HorizontalLayout(list, details);
        body.setFlexGrow(1, list);
        body.setFlexShrink(0, details);
        body.setSizeFull();
        HorizontalLayout line = new HorizontalLayout(status, scan.progress);
        line.setDefaultVerticalComponentAlignment(Alignment.CENTER);
        add(filters, line, body);
        scan.rescan();
    }

    /**
     * {@code /locks/<name>} (the router hands the path over percent-decoded; a {@code /} in the name,
     * raw or as {@code %2F}, is part of it) or {@code /locks?name=<name>}: see {@link DeepLink}.
     */
    @Override
    public void setParameter(BeforeEvent event, @WildcardParameter String path) {
        String name = path == null || path.isEmpty()
                ? event.getLocation()
                        .getQueryParameters()
                        .getSingleParameter("name")
                        .orElse("")
                : path;
        if (!name.isEmpty()) {
            select(name);
        }
    }

    private void filtersChanged() {
        scan.restart();
    }

    /** Re-reads the rows shown, nothing else. */
    private void refreshShown() {
        try {
            show(service.refresh(shown.stream().map(LockInfo::name).toList()));
        } catch (LockException e) {
            status.setText("Cannot read locks: " + e.getMessage());
        }
    }

    private void show(List<LockInfo> locks) {
        shown.clear();
        shown.addAll(locks);
        grid.show(locks);
        scan.refreshed(locks.size());
        if (selected != null) {
            Optional<LockInfo> s =
                    locks.stream().filter(i -> i.name().equals(selected)).findFirst();
            details.show(selected, s.isPresent() ? s : service.get(selected));
        }
    }

    private void select(String name) {
        if (name.equals(selected)) {
            return;
        }
        Optional<LockInfo> lock;
        try {
            lock = service.get(name);
        } catch (IllegalArgumentException e) { // a link with a name lock-core refuses, e.g. with braces
            selected = null;
            details.showInvalid(name, e.getMessage());
            return;
        } catch (LockException e) {
            status.setText("Cannot read lock: " + e.getMessage());
            return;
        }
        selected = name;
        details.clearResult();
        details.show(name, lock);
        UI.getCurrent().getPage().getHistory().replaceState(null, DeepLink.path(name));
        refreshEvents();
    }

    private void refreshEvents() {
        if (selected != null) {
            try {
                details.showEvents(service.events(selected));
            } catch (LockException e) {
                status.setText("Cannot read events: " + e.getMessage());
            }
        }
    }

    private void confirmRelease(LockInfo lock) {
        new ForceReleaseDialog(lock, this::release).open();
    }

    private void release(LockInfo lock) {
        try {
            ForceReleaseResult r = service.forceRelease(lock, user);
            String text = service.describe(r); // a Redlock minority release says so, node by node
            details.showResult(text, false);
            Notification.show(text, r.released() ? 5000 : 10000, Notification.Position.BOTTOM_END)
                    .addThemeVariants(
                            r.released() ? NotificationVariant.LUMO_SUCCESS : NotificationVariant.LUMO_CONTRAST);
        } catch (AccessDeniedException | LockChangedException | LockException e) {
            details.showResult(e.getMessage(), true);
            Notification.show(e.getMessage(), 8000, Notification.Position.BOTTOM_END)
                    .addThemeVariants(NotificationVariant.LUMO_ERROR);
        }
        refreshShown();
        refreshEvents();
    }

    /** The UI polls every second (see IdleTimeout); this view refreshes on each poll. */
    @Override
    protected void onAttach(AttachEvent event) {
        polling = event.getUI().addPollListener(e -> {
            polls++;
            if (scan.running()) {
                scan.poll();
            } else if (polls % RESCAN_EVERY_POLLS == 0) {
                scan.rescan();
            } else {
                refreshShown();
            }
            if (polls % EVENTS_EVERY_POLLS == 0) {
                refreshEvents();
            }
        });
    }

    @Override
    protected void onDetach(DetachEvent event) {
        polling.remove();
        scan.cancel();
    }
}
