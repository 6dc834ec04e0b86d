package dev.lockwarden.admin.ui;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.UserDirectory;

/**
 * A dashboard under test, in this JVM: its own {@link LockManager} ({@code lockwarden-admin}), the
 * server on a free loopback port over that manager's inspector, and a headless Chromium on it.
 */
final class Dashboard implements AutoCloseable {
    final LockManager admin;
    final AdminServer server;
    final Browser browser;

    private Dashboard(LockManager admin, AdminServer server, Browser browser) {
        this.admin = admin;
        this.server = server;
        this.browser = browser;
    }

    /**
     * Checks for Chromium first (skip or fail, see {@link ChromiumCheck}), then starts everything.
     *
     * @param topology a builder with the deployment set, e.g. {@code LockManager.builder().redis(uri)}
     */
    static Dashboard start(LockManager.Builder topology, UserDirectory users) throws Exception {
        ChromiumCheck.require(Browser.CHROMIUM, Browser.CHROMEDRIVER);
        LockManager admin = topology.application("lockwarden-admin").build();
        AdminServer server = null;
        try {
            long t0 = System.nanoTime();
            server = AdminServer.start(Fixtures.config(users), admin.inspector(), admin::describeRedis);
            long t1 = System.nanoTime();
            Browser browser = new Browser(server.uri().toString());
            System.out.printf(
                    "dashboard started in %d ms, Chromium in %d ms%n",
                    (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
            return new Dashboard(admin, server, browser);
        } catch (Exception | Error e) {
            Fixtures.closeAll(server, admin);
            throw e;
        }
    }

    @Override
    public void close() {
        Fixtures.closeAll(browser, server, admin);
    }
}
