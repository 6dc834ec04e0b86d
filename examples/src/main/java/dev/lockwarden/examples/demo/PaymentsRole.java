package dev.lockwarden.examples.demo;

import dev.lockwarden.examples.payments.PaymentService;
import dev.lockwarden.examples.payments.PaymentsApp;
import dev.lockwarden.examples.payments.Receipt;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.weld.environment.se.WeldContainer;

/** Charges payments TX-1000..TX-1019 through {@code @Locked} (Weld SE); other workers get the same ids. */
final class PaymentsRole implements Role {
    private final WeldContainer cdi;

    PaymentsRole(String redisUri, String application) {
        this.cdi = PaymentsApp.boot(redisUri, application);
    }

    @Override
    public void run(Console out) throws Exception {
        PaymentService payments = cdi.select(PaymentService.class).get();
        for (int n = 0; !Thread.currentThread().isInterrupted(); n++) {
            String id = "TX-" + (1000 + (n / 2) % 20); // each id twice in a row, like a client retry
            Receipt r = payments.charge(id, 1999);
            out.say(
                    r.replayed()
                            ? "payments: " + id + " was already charged: replayed receipt " + r.number()
                            : "payments: charged " + id + " (" + r.number() + ", fence " + r.fence() + ")");
            if (!Role.pause(800 + ThreadLocalRandom.current().nextInt(800))) {
                return;
            }
        }
    }

    @Override
    public void close() {
        cdi.close();
    }
}
