package dev.lockwarden.examples.payments;

import dev.lockwarden.fencing.JdbcFence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;

/**
 * The payments table, written only through {@link JdbcFence}: a write carrying a fencing token not
 * above the row's last one (a holder that stalled past its TTL) is rejected by the database.
 * Plain SQL that H2 and PostgreSQL both run; one connection per call.
 */
public final class PaymentLedger {
    /** Default: an in-memory H2 database that lives as long as the JVM. */
    public static final String DEFAULT_URL = "jdbc:h2:mem:payments;DB_CLOSE_DELAY=-1";

    private static final String UNIQUE_VIOLATION = "23505";
    private final JdbcFence fence = new JdbcFence("payment", "id", "fence");
    private final String url;

    /** A ledger on {@code jdbcUrl} (user/password inside the URL), creating its table if missing. */
    public PaymentLedger(String jdbcUrl) {
        this.url = jdbcUrl;
        try (Connection c = connect();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS payment (id VARCHAR(64) PRIMARY KEY, cents BIGINT NOT NULL,"
                    + " status VARCHAR(16) NOT NULL, confirmation VARCHAR(64), fence BIGINT)");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare the payment table at " + redacted(), e);
        }
    }

    /** Registers the payment as PENDING unless it exists. */
    public void open(String paymentId, long cents) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement("INSERT INTO payment (id, cents, status) VALUES (?, ?, 'PENDING')")) {
            ps.setString(1, paymentId);
            ps.setLong(2, cents);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
        }
    }

    /** The stored receipt if the payment was charged. */
    public Optional<Receipt> receiptOf(String paymentId) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT cents, confirmation, fence FROM payment WHERE id = ? AND status = 'CHARGED'")) {
            ps.setString(1, paymentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new Receipt(paymentId, rs.getLong(1), rs.getString(2), rs.getLong(3), true))
                        : Optional.empty();
            }
        }
    }

    /**
     * Puts {@code fencingToken} on the payment's row unless a newer one is there (false: this holder is
     * stale); from then on every write with an older token is refused.
     */
    public boolean claim(String paymentId, long fencingToken) throws SQLException {
        try (Connection c = connect()) {
            return fence.claim(c, paymentId, fencingToken);
        }
    }

    /** Marks the payment CHARGED unless the row carries a newer token than {@code fencingToken}; false if stale. */
    public boolean recordCharge(String paymentId, long fencingToken, String confirmation) throws SQLException {
        try (Connection c = connect()) {
            return fence.update(c, paymentId, fencingToken, Map.of("status", "CHARGED", "confirmation", confirmation));
        }
    }

    /** The confirmation stored for the payment, whatever its status. */
    public Optional<String> confirmationOf(String paymentId) throws SQLException {
        try (Connection c = connect();
                PreparedStatement ps = c.prepareStatement("SELECT confirmation FROM payment WHERE id = ?")) {
            ps.setString(1, paymentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** The URL without its query part, where credentials may sit. */
    String redacted() {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q) + "?…";
    }
}
