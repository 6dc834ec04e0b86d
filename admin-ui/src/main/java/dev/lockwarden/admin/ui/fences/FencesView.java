package dev.lockwarden.admin.ui.fences;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.grid.ColumnTextAlign;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import com.vaadin.flow.component.textfield.TextField;
import com.vaadin.flow.data.value.ValueChangeMode;
import com.vaadin.flow.router.PageTitle;
import com.vaadin.flow.router.Route;
import dev.lockwarden.FenceCounter;
import dev.lockwarden.LockException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.ui.MainLayout;
import dev.lockwarden.admin.ui.locks.Formats;

/** Every fencing counter, including those of locks that are free now, with its retention. */
@Route(value = "fences", layout = MainLayout.class)
@PageTitle("Fencing counters · Lockwarden")
public final class FencesView extends VerticalLayout {
    static final int MAX = 1_000;
    private final AdminService service;
    private final TextField prefix = new TextField("Name prefix");
    private final Grid<FenceCounter> grid = new Grid<>();
    private final Span status = new Span();

    public FencesView(AdminService service) {
        this.service = service;
        setSizeFull();
        prefix.setId("fence-prefix");
        prefix.setValueChangeMode(ValueChangeMode.LAZY);
        prefix.addValueChangeListener(e -> load());
        status.setId("fence-status");
        configureGrid();
        Button reload = new Button("Reload", e -> load());
        HorizontalLayout bar = new HorizontalLayout(prefix, reload);
        bar.setDefaultVerticalComponentAlignment(Alignment.BASELINE);
        add(bar, status, grid);
        load();
    }

    private void configureGrid() {
        grid.setId("fences");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.addColumn(FenceCounter::name)
                .setHeader("Lock")
                .setAutoWidth(true)
                .setFlexGrow(2)
                .setSortable(true);
        grid.addColumn(FenceCounter::value)
                .setHeader("Fence")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(f -> f.held() ? "held" : "free")
                .setHeader("Lock now")
                .setAutoWidth(true)
                .setSortable(true);
        grid.addColumn(f -> Formats.ttl(f.retention()))
                .setHeader("Retention left")
                .setAutoWidth(true);
    }

    private void load() {
        try {
            var fences = service.fences(prefix.getValue(), MAX);
            grid.setItems(fences);
            status.setText(fences.size() + " counters"
                    + (fences.size() >= MAX ? " (first " + MAX + "; narrow the prefix)" : ""));
        } catch (LockException e) {
            status.setText("Cannot read fencing counters: " + e.getMessage());
        }
    }
}
