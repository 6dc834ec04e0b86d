package dev.lockwarden.admin.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.Component;
import com.vaadin.flow.component.DetachEvent;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.orderedlayout.HorizontalLayout;
import com.vaadin.flow.router.RouterLink;
import com.vaadin.flow.shared.Registration;
import dev.lockwarden.admin.service.Health;
import dev.lockwarden.admin.service.HealthService;
import dev.lockwarden.admin.service.HeldLocks;
import dev.lockwarden.admin.ui.activity.ActivityView;
import dev.lockwarden.admin.ui.audit.AuditView;
import dev.lockwarden.admin.ui.clients.ClientsView;
import dev.lockwarden.admin.ui.locks.Formats;
import dev.lockwarden.admin.ui.locks.LocksView;

/**
 * One line at the top of every page: the deployment (a Sentinel's current master), the master's replicas,
 * Redis's round trip, clients alive, locks held
 * and orphaned, locks lost and force-released in the last 15 minutes; each a link to the view
 * behind it. Read through {@link HealthService} (shared, in the background, at most every 10 s).
 */
final class HealthStrip extends HorizontalLayout {
    private final HealthService health;
    private final Span deployment = item("health-deployment");
    private final Span replicas = item("health-replicas");
    private final Span roundTrip = item("health-rtt");
    private final RouterLink clients = link("health-clients", ClientsView.class);
    private final RouterLink held = link("health-held", LocksView.class);
    private final RouterLink orphaned = link("health-orphaned", ClientsView.class);
    private final RouterLink lost = link("health-lost", ActivityView.class);
    private final RouterLink forced = link("health-forced", AuditView.class);
    private Registration polling;

    HealthStrip(HealthService health) {
        this.health = health;
        setId("health");
        setSpacing(true);
        getStyle().set("font-size", "var(--lumo-font-size-s)").set("flex-wrap", "wrap");
        add(deployment, replicas, roundTrip, clients, held, orphaned, lost, forced);
        refresh();
    }

    private void refresh() {
        java.util.Optional<Health> reading = health.health();
        if (reading.isEmpty()) {
            deployment.setText("reading Redis…");
            return;
        }
        Health h = reading.get();
        deployment.setText(h.deployment());
        replicas.setText(
                h.replicas().isEmpty()
                        ? ""
                        : Formats.count(h.replicas().size(), "replica") + ": " + String.join("; ", h.replicas()));
        if (h.error().isPresent()) {
            roundTrip.setText("Redis unreachable: " + h.error().get());
            roundTrip.getStyle().set("color", "var(--lumo-error-text-color)");
            for (RouterLink l : new RouterLink[] {clients, held, orphaned, lost, forced}) {
                l.setText("");
            }
            return;
        }
        roundTrip.getStyle().remove("color");
        roundTrip.setText("round trip "
                + String.format(java.util.Locale.ROOT, "%.1f ms", h.roundTrip().toNanos() / 1e6));
        clients.setText(Formats.count(h.clientsAlive(), "client") + " alive");
        held.setText(health.held().map(HeldLocks::text).orElse("counting locks…"));
        orphaned.setText((h.exact() ? "" : "≥ ") + h.orphaned() + " orphaned");
        lost.setText(h.lost() + " lost in 15 min");
        forced.setText(h.forceReleased() + " force-released in 15 min");
        markIfAny(orphaned, h.orphaned());
        markIfAny(lost, h.lost());
    }

    private static void markIfAny(RouterLink link, long n) {
        link.getStyle().set("color", n > 0 ? "var(--lumo-error-text-color)" : "");
    }

    @Override
    protected void onAttach(AttachEvent event) {
        polling = event.getUI().addPollListener(e -> refresh()); // cheap: the service reads Redis in the background
    }

    @Override
    protected void onDetach(DetachEvent event) {
        polling.remove();
    }

    private static Span item(String id) {
        Span s = new Span();
        s.setId(id);
        return s;
    }

    private static RouterLink link(String id, Class<? extends Component> view) {
        RouterLink l = new RouterLink("", view);
        l.setId(id);
        return l;
    }
}
