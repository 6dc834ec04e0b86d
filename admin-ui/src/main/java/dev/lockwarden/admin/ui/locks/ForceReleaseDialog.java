package dev.lockwarden.admin.ui.locks;

import java.util.function.Consumer;

import com.vaadin.flow.component.confirmdialog.ConfirmDialog;
import com.vaadin.flow.component.html.Div;
import com.vaadin.flow.component.html.Paragraph;

import dev.lockwarden.LockInfo;

/** Asks the operator to confirm a force-release, showing the holder and fence being removed. */
final class ForceReleaseDialog extends ConfirmDialog {

    ForceReleaseDialog(LockInfo lock, Consumer<LockInfo> onConfirm) {
        setId("confirm-release");
        setHeader("Force-release “" + lock.name() + "”?");
        setText(new Div(
                new Paragraph("Holder: " + Formats.holder(lock.holder()) + " (" + Formats.alive(lock) + ")"),
                new Paragraph("Fence: " + lock.fencingToken() + " — writes fenced with it become stale."),
                new Paragraph("The holder loses the lock at its next refresh. This is recorded in the audit log.")));
        setCancelable(true);
        setConfirmText("Force release");
        setConfirmButtonTheme("error primary");
        addConfirmListener(e -> onConfirm.accept(lock));
    }
}
