package dev.lockwarden.examples.jakarta;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import java.sql.SQLException;

/** Creates the payments table when the WAR is deployed. */
@Singleton
@Startup
public class Schema {
    @Inject
    Ledger ledger;

    @PostConstruct
    void create() {
        try {
            ledger.createTable();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create the payment table in java:comp/DefaultDataSource", e);
        }
    }
}
