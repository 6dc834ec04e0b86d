package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.button.ButtonVariant;
import com.vaadin.flow.component.grid.Grid;
import com.vaadin.flow.component.grid.GridVariant;
import com.vaadin.flow.component.html.H3;
import com.vaadin.flow.component.html.H4;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.VerticalLayout;
import dev.lockwarden.LockEvent;
import dev.lockwarden.LockInfo;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The selected lock: holder, fence, recent events, and the force-release button (shown to
 * operators only; the service checks the role again).
 */
final class LockDetails extends VerticalLayout {
    /** For an unknown name (a mistyped link) as for a lock released since. */
    static final String NOT_HELD = "No such lock (it may have been released).";

    private final H3 title = new H3();
    private final Span holder = new Span();
    private final Span fence = new Span();
    private final Span meta = new Span();
    private final com.vaadin.flow.component.html.Anchor link = new com.vaadin.flow.component.html.Anchor();
    private final Span result = new Span();
    private final Button forceRelease = new Button("Force release…");
    private final Grid<LockEvent> events = new Grid<>();
    private LockInfo shown;

    /** @param operator whether to offer force-release; {@code onForceRelease} gets the lock as shown */
    LockDetails(boolean operator, Consumer<LockInfo> onForceRelease) {
        setId("details");
        setPadding(false);
        setWidth("38rem");
        holder.setId("detail-holder");
        fence.setId("detail-fence");
        result.setId("release-result");
        forceRelease.setId("force-release");
        forceRelease.addThemeVariants(ButtonVariant.LUMO_ERROR, ButtonVariant.LUMO_PRIMARY);
        forceRelease.setVisible(operator);
        forceRelease.addClickListener(e -> Optional.ofNullable(shown).ifPresent(onForceRelease));
        configureEvents();
        meta.setId("detail-meta");
        title.setId("detail-title");
        link.setId("detail-link");
        add(title, link, holder, fence, meta, forceRelease, result, new H4("Recent events and fence history"), events);
        setVisible(false);
    }

    private void configureEvents() {
        events.setId("events");
        events.addThemeVariants(GridVariant.LUMO_COMPACT);
        events.setAllRowsVisible(false);
        events.setHeight("18rem");
        events.addColumn(LockEvent::type).setHeader("Event").setAutoWidth(true);
        events.addColumn(e -> Formats.time(e.at())).setHeader("At").setAutoWidth(true);
        events.addColumn(e -> e.fields().getOrDefault("fence", ""))
                .setHeader("Fence")
                .setAutoWidth(true);
        events.addColumn(e -> e.fields().getOrDefault("operator", e.fields().getOrDefault("app", "")))
                .setHeader("By")
                .setAutoWidth(true);
        events.addColumn(EventDetails::of).setHeader("Details").setAutoWidth(true);
    }

    /** Shows {@code lock}, or that no lock {@code name} is held (never was, or not any more). */
    void show(String name, Optional<LockInfo> lock) {
        setVisible(true);
        shown = lock.orElse(null);
        title.setText(name);
        link.setHref(DeepLink.path(name));
        link.setText("link to this lock");
        forceRelease.setEnabled(lock.isPresent());
        if (lock.isEmpty()) {
            holder.setText(NOT_HELD);
            fence.setText("");
            meta.setText("");
            return;
        }
        LockInfo i = lock.get();
        holder.setText("Holder: " + Formats.holder(i.holder()) + " (" + Formats.alive(i) + ")");
        fence.setText(
                "Fence " + i.fencingToken() + " · TTL " + Formats.ttl(i.remainingTtl()) + " · " + Formats.source(i));
        meta.setText("Acquired " + Formats.time(i.acquiredAt()) + " (" + Formats.ttl(Formats.age(i)) + " ago) · JVM "
                + i.holder().jvmId() + " · nodes " + String.join(", ", i.nodes()));
    }

    /** For a link whose name is not a valid lock name: lock-core's reason, which says what is wrong. */
    void showInvalid(String name, String reason) {
        show(name, Optional.empty());
        holder.setText("Not a lock name: " + reason);
        events.setItems(List.of());
    }

    void showEvents(List<LockEvent> recent) {
        events.setItems(recent);
    }

    /** The outcome of the last force-release, kept until another lock is selected. */
    void showResult(String text, boolean error) {
        result.setText(text);
        result.getStyle().set("color", error ? "var(--lumo-error-text-color)" : "var(--lumo-success-text-color)");
    }

    void clearResult() {
        result.setText("");
    }
}
