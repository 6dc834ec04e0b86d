package dev.lockwarden.examples.demo;

import java.nio.file.Path;
import java.sql.SQLException;
import org.h2.tools.Server;

/**
 * The payments ledger the demo's workers share: an H2 TCP server on 127.0.0.1 with its files in
 * the demo's temp dir. (Each JVM's own in-memory H2 would let two workers both record a charge.)
 */
final class LedgerServer implements AutoCloseable {
    private final Server server;

    private LedgerServer(Server server) {
        this.server = server;
    }

    static LedgerServer start(Path dir, int port) throws SQLException {
        System.setProperty("h2.bindAddress", "127.0.0.1"); // loopback only
        Server s = Server.createTcpServer(
                        "-tcpPort", Integer.toString(port), "-baseDir", dir.toString(), "-ifNotExists")
                .start();
        return new LedgerServer(s);
    }

    /** JDBC URL of the ledger database. */
    String jdbcUrl() {
        return "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/payments";
    }

    @Override
    public void close() {
        server.stop();
    }
}
