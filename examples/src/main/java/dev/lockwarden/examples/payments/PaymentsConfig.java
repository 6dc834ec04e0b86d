package dev.lockwarden.examples.payments;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Produces the ledger from {@code -Dpayments.jdbc=<JDBC URL>} (e.g.
 * {@code jdbc:postgresql://db:5432/shop?user=app&password=...}); default: an embedded H2.
 */
@ApplicationScoped
public class PaymentsConfig {
    /** System property naming the ledger's JDBC URL. */
    public static final String JDBC_PROPERTY = "payments.jdbc";

    @Produces
    @Singleton // PaymentLedger is final: no client proxy
    PaymentLedger ledger() {
        return new PaymentLedger(System.getProperty(JDBC_PROPERTY, PaymentLedger.DEFAULT_URL));
    }
}
