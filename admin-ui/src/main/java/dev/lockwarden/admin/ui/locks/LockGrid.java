package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.grid.ColumnTextAlign;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.data.provider.ListDataProvider;
import com.vaadin.flow.data.renderer.LitRenderer;
import dev.lockwarden.LockInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The table of held locks. Rows are identified by lock name, so a refresh keeps the scroll position
 * and the selected row. Name, application, holder, TTL, fence and nodes cells carry {@code data-lock}
 * attributes for browser tests. Columns have fixed widths: auto width would make the browser measure
 * every rendered cell after each load, which was most of the first page's rendering time at 100k locks.
 */
final class LockGrid extends Grid<LockInfo> {
    private final List<LockInfo> rows = new ArrayList<>();
    private final ListDataProvider<LockInfo> data = new ListDataProvider<>(rows) {
        @Override
        public Object getId(LockInfo item) {
            return item.name();
        }
    };

    private final Duration longHeld;

    /** @param longHeld age from which a lock is marked LONG-HELD */
    LockGrid(Duration longHeld) {
        this.longHeld = longHeld;
        setId("locks");
        addThemeVariants(GridVariant.LUMO_COMPACT, GridVariant.LUMO_ROW_STRIPES);
        // what an operator looks for first, narrow enough for 1280 px; host, pid, thread, source,
        // acquired at and age are in the details
        addColumn(LitRenderer.<LockInfo>of("<b class='lock-name' data-lock='${item.name}'>${item.name}</b>")
                        .withProperty("name", LockInfo::name))
                .setHeader("Lock")
                .setWidth("220px")
                .setFlexGrow(2);
        addColumn(LitRenderer.<LockInfo>of("<span class='holder-app' data-lock='${item.name}'>${item.app}</span>")
                        .withProperty("name", LockInfo::name)
                        .withProperty("app", i -> Formats.text(i.holder().application())))
                .setHeader("Application")
                .setWidth("130px");
        addColumn(LitRenderer.<LockInfo>of("<span class='holder-state' data-lock='${item.name}' "
                                + "style='color:${item.color}'>${item.state}</span>")
                        .withProperty("name", LockInfo::name)
                        .withProperty("state", i -> Formats.marks(i, longHeld))
                        .withProperty(
                                "color",
                                i -> i.holderAlive()
                                        ? "var(--lumo-success-text-color)"
                                        : "var(--lumo-error-text-color)"))
                .setHeader("Holder")
                .setWidth("150px");
        addColumn(LitRenderer.<LockInfo>of("<span class='ttl' data-lock='${item.name}'>${item.ttl}</span>")
                        .withProperty("name", LockInfo::name)
                        .withProperty("ttl", i -> Formats.ttl(i.remainingTtl())))
                .setHeader("TTL")
                .setWidth("90px")
                .setTextAlign(ColumnTextAlign.END)
                .setKey("ttl")
                .setComparator(Comparator.comparing(LockInfo::remainingTtl));
        addColumn(LitRenderer.<LockInfo>of("<span class='fence' data-lock='${item.name}'>${item.fence}</span>")
                        .withProperty("name", LockInfo::name)
                        .withProperty("fence", LockInfo::fencingToken))
                .setHeader("Fence")
                .setWidth("120px")
                .setTextAlign(ColumnTextAlign.END);
        addColumn(LitRenderer.<LockInfo>of("<span class='nodes' data-lock='${item.name}'>${item.nodes}</span>")
                        .withProperty("name", LockInfo::name)
                        .withProperty("nodes", i -> String.join(", ", i.nodes())))
                .setHeader("Nodes")
                .setWidth("160px")
                .setFlexGrow(1);
        setItems(data);
        // Send the first rows with the response that creates the grid, instead of waiting for the
        // browser to ask for them: one round trip less before the first page shows.
        getDataCommunicator().setViewportRange(0, getPageSize());
    }

    /** Replaces the rows with a fresh read. */
    void show(List<LockInfo> locks) {
        rows.clear();
        rows.addAll(locks);
        data.refreshAll();
    }
}
