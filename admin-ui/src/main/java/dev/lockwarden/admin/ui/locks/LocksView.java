package dev.lockwarden.admin.ui.locks;

import java.time.Instant;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.notification.Notification;
import com.vaadin.flow.component.notification.NotificationVariant;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.shared.Registration;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockException;
import dev.lockwarden.LockInfo;
import dev.lockwarden.admin.security.AdminUser;
import dev.lockwarden.admin.service.AccessDeniedException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.LockChangedException;
import dev.lockwarden.admin.service.LockListing;
import dev.lockwarden.admin.ui.CurrentUser;

/** Every held lock, refreshed each second; filter, load more, details and force-release. */
@Route("")
@PageTitle("Locks · Lockwarden")
public final class LocksView extends VerticalLayout {
    private static final int EVENTS_EVERY_POLLS = 5;

    private final AdminService service;
    private final AdminUser user;
    private final FilterBar filters = new FilterBar(this::filtersChanged);
    private final Span status = new Span();
    private final LockGrid grid = new LockGrid();
    private final Button loadMore = new Button("Load more", e -> loadMore());
    private final LockDetails details;
    private Registration polling;
    private int pages = 1;
    private int polls;
    private String selected;

    public LocksView(AdminService service) {
        this.service = service;
        this.user = CurrentUser.get().orElseThrow(() -> new IllegalStateException("LocksView needs a logged-in user"));
        this.details = new LockDetails(user.role().mayForceRelease(), this::confirmRelease);
        setSizeFull();
        grid.addSelectionListener(e -> select(e.getFirstSelectedItem().map(LockInfo::name).orElse(null)));
        loadMore.setId("load-more");
        status.setId("status");
        HorizontalLayout body = new HorizontalLayout(new VerticalLayout(grid, loadMore), details);
        body.setSizeFull();
        add(new UserBar(user), filters, status, body);
        refresh();
    }

    private void filtersChanged() {
        pages = 1;
        refresh();
    }

    private void loadMore() {
        pages++;
        refresh();
    }

    private void select(String name) {
        selected = name;
        details.clearResult();
        details.setVisible(name != null);
        refresh();
        refreshEvents();
    }

    private void refresh() {
        try {
            LockListing listing = service.list(filters.query(), pages);
            grid.show(listing.locks());
            loadMore.setVisible(listing.more());
            status.setText(listing.locks().size() + " locks · updated " + Formats.time(Instant.now()));
            if (selected != null) {
                details.show(selected, listing.locks().stream().filter(i -> i.name().equals(selected)).findFirst());
            }
        } catch (LockException | IllegalArgumentException e) {
            status.setText("Cannot read locks: " + e.getMessage());
        }
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
            String text = "Released " + r.name() + ": fence " + r.oldFence() + " → " + r.newFence() + ", audit id " + r.auditId();
            details.showResult(text, false);
            Notification.show(text, 5000, Notification.Position.BOTTOM_END).addThemeVariants(NotificationVariant.LUMO_SUCCESS);
        } catch (AccessDeniedException | LockChangedException | LockException e) {
            details.showResult(e.getMessage(), true);
            Notification.show(e.getMessage(), 8000, Notification.Position.BOTTOM_END).addThemeVariants(NotificationVariant.LUMO_ERROR);
        }
        refresh();
        refreshEvents();
    }

    /** The UI polls every second (see IdleTimeout); this view refreshes on each poll. */
    @Override
    protected void onAttach(AttachEvent event) {
        polling = event.getUI().addPollListener(e -> {
            refresh();
            if (++polls % EVENTS_EVERY_POLLS == 0) {
                refreshEvents();
            }
        });
    }

    @Override
    protected void onDetach(DetachEvent event) {
        polling.remove();
    }
}
