package dev.lockwarden.agent;

import dev.lockwarden.LockLostEvent;
import java.util.function.Consumer;

/**
 * {@code onLost=interrupt}: when the lock of a running method is known lost (the handle's loss signal: a refresh that
 * found the lock gone, or the client's own loss notice) the thread running the method is interrupted, so blocking
 * calls that honour interruption ({@code Thread.sleep}, {@code Object.wait}, {@code BlockingQueue}, interruptible
 * channels) end early. Never after the method returned: {@link #finish} closes the window under the same monitor,
 * and clears the interrupt this sent so it does not leak into the caller's next task.
 */
final class Interrupter implements Consumer<LockLostEvent> {
    private final Thread runner = Thread.currentThread();
    private boolean running = true;
    private boolean sent;

    @Override
    public synchronized void accept(LockLostEvent event) {
        if (running) {
            sent = true;
            runner.interrupt();
        }
    }

    /** Called on the runner when the method is over; from then on no interrupt is sent. */
    synchronized void finish() {
        running = false;
        if (sent) {
            Thread.interrupted(); // ours, delivered or not: the caller learns of the loss from LockLostException
        }
    }
}
