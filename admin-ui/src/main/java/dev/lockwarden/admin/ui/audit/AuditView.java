package dev.lockwarden.admin.ui.audit;

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
import dev.lockwarden.AuditRecord;
import dev.lockwarden.LockException;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.ui.MainLayout;
import dev.lockwarden.admin.ui.locks.Formats;

/**
 * The force-release history: who, when, lock, old holder, old and new fence, and each record's seal (a broken
 * seal or a gap in the chain is called out above the grid); filter by any of them.
 */
@Route(value = "audit", layout = MainLayout.class)
@PageTitle("Audit · Lockwarden")
public final class AuditView extends VerticalLayout {
    static final int MAX = 500;
    private final AdminService service;
    private final TextField filter = new TextField("Operator, lock or holder contains");
    private final Grid<AuditRecord> grid = new Grid<>();
    private final Span status = new Span();

    public AuditView(AdminService service) {
        this.service = service;
        setSizeFull();
        filter.setId("audit-filter");
        filter.setWidth("22rem");
        filter.setValueChangeMode(ValueChangeMode.LAZY);
        filter.addValueChangeListener(e -> load());
        status.setId("audit-status");
        grid.setId("audit");
        grid.addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        grid.addColumn(r -> Formats.time(r.at())).setHeader("When").setAutoWidth(true);
        grid.addColumn(AuditRecord::operator).setHeader("Operator").setAutoWidth(true);
        grid.addColumn(AuditRecord::name).setHeader("Lock").setAutoWidth(true).setFlexGrow(2);
        grid.addColumn(AuditRecord::oldHolder).setHeader("Old holder").setAutoWidth(true);
        grid.addColumn(AuditRecord::oldFence)
                .setHeader("Old fence")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(AuditRecord::newFence)
                .setHeader("New fence")
                .setTextAlign(ColumnTextAlign.END)
                .setAutoWidth(true);
        grid.addColumn(r -> seal(r.seal())).setHeader("Seal").setAutoWidth(true);
        HorizontalLayout bar = new HorizontalLayout(filter, new Button("Reload", e -> load()));
        bar.setDefaultVerticalComponentAlignment(Alignment.BASELINE);
        add(bar, status, grid);
        load();
    }

    /** What the Seal column says. */
    static String seal(AuditRecord.Seal seal) {
        return switch (seal) {
            case VALID -> "sealed";
            case GAP -> "GAP: records before it were deleted";
            case BROKEN -> "BROKEN: altered or forged";
            case UNSIGNED -> "not from the dashboard";
            case UNCHECKED -> "";
        };
    }

    private void load() {
        try {
            var records = service.audit(filter.getValue(), MAX);
            grid.setItems(records);
            long broken = records.stream()
                    .filter(r -> r.seal() == AuditRecord.Seal.BROKEN)
                    .count();
            long gaps = records.stream()
                    .filter(r -> r.seal() == AuditRecord.Seal.GAP)
                    .count();
            long foreign = records.stream()
                    .filter(r -> r.seal() == AuditRecord.Seal.UNSIGNED)
                    .count();
            status.setText(records.size() + " force-releases"
                    + (broken + gaps == 0
                            ? ""
                            : " — THE AUDIT WAS TAMPERED WITH: " + broken + " record(s) with a broken seal, " + gaps
                                    + " gap(s) where records were deleted")
                    + (foreign == 0 ? "" : "; " + foreign + " not from the dashboard (no seal)"));
        } catch (LockException e) {
            status.setText("Cannot read the audit log: " + e.getMessage());
        }
    }
}
