package dev.lockwarden.admin.ui.activity;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.grid.ColumnTextAlign;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import com.vaadin.flow.shared.Registration;
import dev.lockwarden.LockException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.ApplicationActivity;
import dev.lockwarden.admin.ui.MainLayout;

/**
 * Acquisitions, busy answers (contention), lost locks and force-releases per application over the
 * last {@value #MINUTES} minutes, with per-minute sparklines. Re-read every {@value #REFRESH_EVERY_POLLS}
 * polls: clients publish every 5 s, so reading more often would only show the same numbers.
 */
@Route(value = "activity", layout = MainLayout.class)
@PageTitle("Activity · Lockwarden")
public final class ActivityView extends VerticalLayout {
    static final int MINUTES = 15;
    static final int REFRESH_EVERY_POLLS = 5;
    private final AdminService service;
    private final Grid<ApplicationActivity> grid = new Grid<>();
    private final Span status = new Span();
    private Registration polling;
    private int polls;

    public ActivityView(AdminService service) {
        this.service = service;
        setSizeFull();
        status.setId("activity-status");
        configureGrid();
        add(status, grid);
        load();
    }

    private void configureGrid() {
        grid.setId("activity");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.addColumn(ApplicationActivity::application)
                .setHeader("Application")
                .setAutoWidth(true)
                .setFlexGrow(2);
        grid.addColumn(ApplicationActivity::acquired)
                .setHeader("Acquired")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(ApplicationActivity::busy)
                .setHeader("Busy")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(ApplicationActivity::lost)
                .setHeader("Lost")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(ApplicationActivity::forceReleased)
                .setHeader("Force-released")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(a -> Sparkline.of(a.acquiredPerMinute()))
                .setHeader("Acquired / min")
                .setAutoWidth(true);
        grid.addColumn(a -> Sparkline.of(a.busyPerMinute()))
                .setHeader("Busy / min")
                .setAutoWidth(true);
    }

    private void load() {
        try {
            var rows = service.activity(MINUTES);
            grid.setItems(rows);
            status.setText(rows.size() + " applications, last " + MINUTES + " minutes (clients publish every 5 s)");
        } catch (LockException e) {
            status.setText("Cannot read the activity: " + e.getMessage());
        }
    }

    /** The UI polls every second (see IdleTimeout); this view re-reads every few polls. */
    @Override
    protected void onAttach(AttachEvent event) {
        polling = event.getUI().addPollListener(e -> {
            if (++polls % REFRESH_EVERY_POLLS == 0) {
                load();
            }
        });
    }

    @Override
    protected void onDetach(DetachEvent event) {
        polling.remove();
    }
}
