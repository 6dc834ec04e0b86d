package dev.lockwarden.ee;

import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.Locked;
import dev.lockwarden.cdi.Locks;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@code @Stateless} EJB with container-managed transactions (REQUIRED) whose {@code @Locked}
 * methods write to the server's embedded database ({@code java:comp/DefaultDataSource}).
 */
@Stateless
public class Transfers {
    static final AtomicInteger ACTIVE = new AtomicInteger();
    static final AtomicInteger MAX_ACTIVE = new AtomicInteger();
    /** Whether the lock was still in Redis when the transaction was about to commit, per call. */
    static volatile Boolean lockedAtCommit;

    @Resource(lookup = "java:comp/DefaultDataSource")
    DataSource db;

    @Resource
    TransactionSynchronizationRegistry registry;

    @Inject
    LockManager locks;

    /** Read-modify-write of one balance with a pause: overlapping calls would lose updates. */
    @Locked(value = "account:{0}", waitUpTo = "30s")
    public long deposit(String account, long pauseMillis) throws SQLException, InterruptedException {
        MAX_ACTIVE.accumulateAndGet(ACTIVE.incrementAndGet(), Math::max);
        try {
            String lockName = Locks.current().name();
            registry.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() { // runs after the @Locked method returned, right before commit
                    lockedAtCommit = locks.inspector().get(lockName).isPresent();
                }

                @Override
                public void afterCompletion(int status) {}
            });
            long balance = balance(account);
            Thread.sleep(pauseMillis);
            write(account, balance + 1);
            return Locks.current().fencingToken();
        } finally {
            ACTIVE.decrementAndGet();
        }
    }

    /** The control: the same read-modify-write without the lock. */
    public void depositUnlocked(String account, long pauseMillis) throws SQLException, InterruptedException {
        MAX_ACTIVE.accumulateAndGet(ACTIVE.incrementAndGet(), Math::max);
        try {
            long balance = balance(account);
            Thread.sleep(pauseMillis);
            write(account, balance + 1);
        } finally {
            ACTIVE.decrementAndGet();
        }
    }

    /** Writes, then its lock is force-released and the watchdog notices: the write must be rolled back. */
    @Locked(value = "account:{0}", ttl = "1s")
    public void depositAndLoseLock(String account) throws SQLException, InterruptedException {
        write(account, balance(account) + 1000);
        locks.inspector().forceRelease("account:" + account, "it-operator");
        Thread.sleep(1500);
    }

    /** Holds the lock for a while, so the test can look at it and be busy against it. */
    @Locked(value = "hold:{0}", waitUpTo = "0s")
    public String hold(String key, long millis) throws InterruptedException {
        Thread.sleep(millis);
        return "held " + key;
    }

    public long balance(String account) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT amount FROM balance WHERE account = ?")) {
            ps.setString(1, account);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    private void write(String account, long amount) throws SQLException {
        try (Connection c = db.getConnection();
                PreparedStatement update = c.prepareStatement("UPDATE balance SET amount = ? WHERE account = ?")) {
            update.setLong(1, amount);
            update.setString(2, account);
            if (update.executeUpdate() == 0) {
                try (PreparedStatement insert =
                        c.prepareStatement("INSERT INTO balance (account, amount) VALUES (?, ?)")) {
                    insert.setString(1, account);
                    insert.setLong(2, amount);
                    insert.executeUpdate();
                }
            }
        }
    }
}
