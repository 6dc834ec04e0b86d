package dev.lockwarden.admin.ui.locks;

import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Paragraph;
import dev.lockwarden.LockInfo;
import java.util.function.Consumer;

/** Asks the operator to confirm a force-release, showing the holder and fence being removed. */
final class ForceReleaseDialog extends ConfirmDialog {

    ForceReleaseDialog(LockInfo lock, Consumer<LockInfo> onConfirm) {
        setId("confirm-release");
        setHeader("Force-release “" + lock.name() + "”?");
        setText(new Div(
                new Paragraph("Lock: " + lock.name()),
                new Paragraph("Holder: " + Formats.holder(lock.holder()) + " (" + Formats.alive(lock) + ")"),
                new Paragraph("Fence: " + lock.fencingToken() + " — the fence is raised, so writes fenced with "
                        + lock.fencingToken() + " are rejected as stale from now on."),
                new Paragraph("What the holder experiences: it is told at once, with auto-refresh or with "
                        + "autoRefresh(false): its handle is lost, checkHeld() throws and its onLost listeners run. "
                        + "If its connection cannot hear it just then, it learns at its next refresh (within a third "
                        + "of its TTL) or, with autoRefresh(false), at extend() or when its own TTL ran out. Its fence "
                        + "is stale from now on."),
                new Paragraph("Only this holder is released: if the lock changed hands since this dialog opened, "
                        + "nothing happens. The release is recorded in the audit log under your name.")));
        setCancelable(true);
        setConfirmText("Force release");
        setConfirmButtonTheme("error primary");
        addConfirmListener(e -> onConfirm.accept(lock));
    }
}
