package dev.lockwarden.internal;

import dev.lockwarden.store.ForceReleased;
import java.util.function.Supplier;

/**
 * Tells a holder at once that an operator force-released its lock. force-release.lua publishes one message
 * per removed holder on the key prefix's one force-released channel, which the manager's {@link WakeupBus}
 * listens to on its pub/sub connection (from the first lock held on, again after each reconnect): no
 * command per acquire or release. The message names the lock and its token's SHA-1, so a later acquisition
 * of the same name (another token) stays held, and a duplicate (Redlock: every node publishes) finds the
 * handle lost already. A message sent while the connection was down is not heard: the next refresh (or,
 * with autoRefresh off, the end of the validity or an {@code extend}) still finds the token gone.
 */
final class LossSignals {
    private static final System.Logger LOG = System.getLogger(LossSignals.class.getName());

    private final Supplier<? extends Iterable<DefaultLockHandle>> held;

    /** @param held the handles this manager holds now */
    LossSignals(Supplier<? extends Iterable<DefaultLockHandle>> held) {
        this.held = held;
    }

    /**
     * A message on the force-released channel, on the pub/sub thread: the held handle it names is lost
     * now, for the reason a refresh would give (the operator and the new fence); its listeners run on the
     * listener executor. Never throws (an exception would drop the pub/sub connection).
     */
    void message(String payload) {
        try {
            ForceReleased m = ForceReleased.parse(payload);
            if (m == null) {
                return;
            }
            for (DefaultLockHandle h : held.get()) {
                if (h.isActive() && m.ends(h.lease())) {
                    h.markLost(LossCause.forced(m.operator(), m.newFence()));
                }
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "force-release message not handled; the next refresh tells", e);
        }
    }
}
