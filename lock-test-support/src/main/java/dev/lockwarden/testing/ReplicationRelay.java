package dev.lockwarden.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a free 127.0.0.1 port in front of a Redis master, for its replica to connect
 * through ({@code --replicaof 127.0.0.1 RELAY_PORT}), that can {@linkplain #hold() hold back} the
 * replication stream and {@linkplain #flow() let it flow} again.
 *
 * <p>While held, nothing the master sends reaches the replica: a key written then exists on the
 * master only, so killing the master and promoting the replica loses it, as an asynchronous
 * replica can in production. The replica's connection stays open (within its {@code repl-timeout},
 * 60 s by default), and its acknowledgements still reach the master, so {@code WAIT} counts it as
 * behind. Held bytes are kept, in order, and delivered on {@link #flow()}.
 *
 * <p>When the master is gone, connections through the relay are closed (the replica retries on
 * its own). Thread-safe; {@link #close()} stops everything.
 */
public final class ReplicationRelay implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 1000;

    private final int targetPort;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private boolean held; // guarded by gate
    private volatile boolean closed;

    private ReplicationRelay(int targetPort) {
        this.targetPort = targetPort;
        try {
            this.server = new ServerSocket(0, 50, InetAddress.getByName(RedisNode.HOST));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a relay port on " + RedisNode.HOST, e);
        }
        daemon("lockwarden-relay-accept-" + server.getLocalPort(), this::acceptLoop)
                .start();
    }

    /**
     * Starts a relay forwarding to {@code 127.0.0.1:targetPort}, flowing.
     *
     * @param targetPort the master's port
     * @return the started relay
     */
    public static ReplicationRelay to(int targetPort) {
        return new ReplicationRelay(targetPort);
    }

    /** {@return the port replicas connect to} */
    public int port() {
        return server.getLocalPort();
    }

    /** {@return the master port this relay forwards to} */
    public int targetPort() {
        return targetPort;
    }

    /** From now on, bytes from the master are kept back from the replica. */
    public void hold() {
        synchronized (gate) {
            held = true;
        }
    }

    /** Delivers what was held and lets the stream flow again. */
    public void flow() {
        synchronized (gate) {
            held = false;
            gate.notifyAll();
        }
    }

    /** {@return whether the stream is held} */
    public boolean isHeld() {
        synchronized (gate) {
            return held;
        }
    }

    /** Closes the port and every relayed connection; held bytes are dropped. */
    @Override
    public void close() {
        closed = true;
        flow();
        closeQuietly(server);
        sockets.forEach(ReplicationRelay::closeQuietly);
    }

    @Override
    public String toString() {
        return "ReplicationRelay[" + RedisNode.HOST + ":" + port() + " -> " + targetPort + (isHeld() ? ", held" : "")
                + "]";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket replica;
            try {
                replica = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            sockets.add(replica);
            Socket master = new Socket();
            try {
                master.connect(new InetSocketAddress(RedisNode.HOST, targetPort), CONNECT_TIMEOUT_MILLIS);
                master.setTcpNoDelay(true);
                replica.setTcpNoDelay(true);
            } catch (IOException e) {
                closeQuietly(master); // the master is down: the replica sees the link fail and retries
                closeQuietly(replica);
                sockets.remove(replica);
                continue;
            }
            sockets.add(master);
            String name = "lockwarden-relay-" + port() + "-" + replica.getPort();
            daemon(name + "-down", () -> pump(master, replica, true)).start();
            daemon(name + "-up", () -> pump(replica, master, false)).start();
        }
    }

    /** Copies from one socket to the other until either end closes; then closes both. */
    private void pump(Socket from, Socket to, boolean gated) {
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                if (gated && !awaitFlowing()) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one end closed or reset: close the pair below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    /** Blocks while held; false if the relay was closed meanwhile. */
    private boolean awaitFlowing() {
        synchronized (gate) {
            while (held && !closed) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return !closed;
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
