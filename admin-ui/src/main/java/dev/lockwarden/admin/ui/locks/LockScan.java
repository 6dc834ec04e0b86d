package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.button.Button;
import com.vaadin.flow.component.html.Span;
import com.vaadin.flow.component.progressbar.ProgressBar;
import dev.lockwarden.LockInfo;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.LockQuery;
import dev.lockwarden.admin.service.LockSearch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Locks view's scan: starts a {@link LockSearch} for the filter, shows its rows and progress as
 * it goes (status line, progress bar), and offers "Load more" when a page is full and "Keep
 * scanning" when the time budget ran out.
 */
final class LockScan {
    /** How long a new scan may take before the view shows what it has and goes on in the background. */
    private static final Duration FIRST_WAIT = Duration.ofMillis(700);

    final Span status = new Span();
    final ProgressBar progress = new ProgressBar();
    final Button loadMore = new Button("Load more", e -> loadMore());
    final Button keepScanning = new Button("Keep scanning", e -> goOn(0));
    private final AdminService service;
    private final Supplier<LockQuery> query;
    private final Consumer<List<LockInfo>> rows;
    private final Supplier<String> held;
    private LockSearch search;
    private LockSearch.Snapshot lastShown;
    private int pages = 1;

    /** @param held the total of held locks for the status line ("" while not counted) */
    LockScan(AdminService service, Supplier<LockQuery> query, Consumer<List<LockInfo>> rows, Supplier<String> held) {
        this.service = service;
        this.query = query;
        this.rows = rows;
        this.held = held;
        status.setId("status");
        progress.setId("scan-progress");
        progress.setWidth("16rem");
        loadMore.setId("load-more");
        keepScanning.setId("keep-scanning");
    }

    /** A new filter: from the first page. */
    void restart() {
        pages = 1;
        rescan();
    }

    /** Scans again from the start for the pages shown (finds new locks). */
    void rescan() {
        start(service.search(query.get(), pages * service.pageSize(), Optional.empty()));
    }

    /**
     * Whether a scan is still going on, or ended since its last progress was shown (then the view shows its
     * progress, or its final matches, rather than re-reading the rows of an older snapshot).
     */
    boolean running() {
        if (search == null) {
            return false;
        }
        LockSearch.Snapshot s = search.snapshot();
        return s.running() || s != lastShown;
    }

    /** On each refresh while {@link #running()}: shows what the scan found so far. */
    void poll() {
        show(search.snapshot());
    }

    /** The status after the view re-read the {@code shown} rows. */
    void refreshed(int shown) {
        if (search != null && !search.snapshot().running()) {
            status.setText(ScanStatus.text(search.snapshot(), shown, held.get()));
        }
    }

    void cancel() {
        if (search != null) {
            search.cancel();
        }
    }

    private void loadMore() {
        pages++;
        goOn(service.pageSize());
    }

    /** Goes on from where the last scan stopped, for {@code more} matches more (at least up to the pages shown). */
    private void goOn(int more) {
        LockSearch.Snapshot last = search.snapshot();
        int have = last.locks().size();
        start(service.search(query.get(), have + Math.max(more, pages * service.pageSize() - have), Optional.of(last)));
    }

    private void start(LockSearch next) {
        cancel();
        search = next;
        try {
            show(search.awaitSettled(FIRST_WAIT));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void show(LockSearch.Snapshot s) {
        lastShown = s;
        if (s.error().isEmpty()) {
            rows.accept(s.locks());
        }
        status.setText(ScanStatus.text(s, s.locks().size(), held.get()));
        loadMore.setVisible(s.full() && !s.complete());
        keepScanning.setVisible(s.stopped());
        progress.setVisible(s.running());
        s.scanned()
                .ifPresentOrElse(
                        f -> {
                            progress.setIndeterminate(false);
                            progress.setValue(f);
                        },
                        () -> progress.setIndeterminate(true));
    }
}
