package dev.lockwarden.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisSentinelClient;

/**
 * Tells the lock manager when the master of a Sentinel deployment changed, so that it re-checks every
 * lock it holds on the new master at once. One pub/sub connection per sentinel listens for
 * {@code +switch-master} of this master (the first sentinel to announce a failover is heard, whichever it
 * is); after each (re)connect it also asks that sentinel for the master's address, so a switch missed
 * while disconnected is noticed too. Listeners run once the client's connections follow the new master
 * (waited for at most {@value #FOLLOW_MILLIS} ms), on a listening thread: they must not block.
 */
final class SentinelWatch implements TopologyWatch {
    private static final System.Logger LOG = System.getLogger(SentinelWatch.class.getName());
    private static final String CHANNEL = "+switch-master";
    static final long FOLLOW_MILLIS = 1_000;
    private static final long RECONNECT_MILLIS = 1_000;

    private final String masterName;
    private final JedisClientConfig sentinelConfig;
    private final RedisSentinelClient client;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicReference<HostAndPort> known;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Jedis> connections = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    SentinelWatch(
            String masterName, List<HostAndPort> sentinels, JedisClientConfig sentinelConfig, RedisSentinelClient c) {
        this.masterName = masterName;
        this.sentinelConfig = sentinelConfig;
        this.client = c;
        this.known = new AtomicReference<>(c.getCurrentMaster());
        for (HostAndPort sentinel : sentinels) {
            Thread t = new Thread(() -> listen(sentinel), "lockwarden-sentinel-" + sentinel);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    /** Calls {@code listener} with a short description of each master switch, e.g. {@code failover of mymaster to host:port}. */
    @Override
    public void onSwitch(Consumer<String> listener) {
        listeners.add(listener);
    }

    /** The master the client's connections go to now. */
    @Override
    public String current() {
        return " master " + currentMaster();
    }

    HostAndPort currentMaster() {
        return client.getCurrentMaster();
    }

    private void listen(HostAndPort sentinel) {
        while (!closed) {
            try (Jedis j = new Jedis(sentinel, sentinelConfig)) {
                connections.add(j);
                try {
                    if (closed) {
                        return; // close() ran before j was listed: it could not close it
                    }
                    List<String> addr = j.sentinelGetMasterAddrByName(masterName);
                    if (addr != null && addr.size() == 2) {
                        switched(new HostAndPort(addr.get(0), Integer.parseInt(addr.get(1))));
                    }
                    j.subscribe(new Listener(), CHANNEL); // blocks until the connection drops or close()
                } finally {
                    connections.remove(j);
                }
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.log(System.Logger.Level.DEBUG, "sentinel " + sentinel + " unreachable; retrying", e);
            }
            sleep(RECONNECT_MILLIS);
        }
    }

    /** A sentinel names {@code master}: if that is news, wait for the client to follow, then tell the listeners. */
    private void switched(HostAndPort master) {
        HostAndPort before = known.get();
        if (master.equals(before) || !known.compareAndSet(before, master)) {
            return; // every sentinel announces the same switch: tell once
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FOLLOW_MILLIS);
        while (!master.equals(client.getCurrentMaster()) && System.nanoTime() < deadline && !closed) {
            sleep(5); // Jedis's own sentinel listener hears the same message and re-points the pool
        }
        TopologyWatch.tell(listeners, "failover of " + masterName + " to " + master, LOG);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Jedis j : connections) {
            try {
                j.close(); // ends the blocking subscribe
            } catch (RuntimeException ignored) {
                // going away anyway
            }
        }
        threads.forEach(Thread::interrupt);
    }

    private final class Listener extends JedisPubSub {
        @Override
        public void onMessage(String channel, String message) {
            // "<master name> <old ip> <old port> <new ip> <new port>"
            String[] parts = message.split(" ");
            if (parts.length >= 5 && parts[0].equals(masterName)) {
                try {
                    switched(new HostAndPort(parts[3], Integer.parseInt(parts[4])));
                } catch (NumberFormatException e) {
                    LOG.log(System.Logger.Level.WARNING, "unexpected " + CHANNEL + " message: " + message);
                }
            }
        }
    }
}
