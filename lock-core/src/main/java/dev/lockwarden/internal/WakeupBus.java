package dev.lockwarden.internal;

import dev.lockwarden.store.RedisDeployment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * One pub/sub connection per {@code LockManager}, shared by every waiter of this JVM. A waiter
 * subscribes to its lock's release channel; whom a release wakes is its {@link ReleaseQueue}'s job
 * (FIFO, one waiter per release). If the connection drops, it reconnects in the background, moving
 * to the next node (Redlock: every node hears every release), and re-subscribes; waiters meanwhile
 * fall back to their timed retry. On the same connection it listens, from the first lock held on, to the
 * force-released channel that tells a holder its lock is gone ({@link LossSignals}).
 * <p>
 * Over 200 lines because the connection's life — subscribe, the control channel whose confirmation
 * sends what waiters joined while connecting, reconnect and failover, close — must stay under one
 * lock ({@code wire}) with the (UN)SUBSCRIBEs that membership changes cause, so Redis always sees
 * them in the order they were decided; splitting it further would spread that lock over classes.
 * Only {@link ReentrantLock}s, never a monitor: a virtual thread that waits here (or writes a
 * SUBSCRIBE) does not pin its carrier thread on JDK 21–23.
 */
public final class WakeupBus implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WakeupBus.class.getName());

    private final List<UnifiedJedis> sources;
    private final String controlChannel;
    /** The force-released channel ({@link LossSignals}): like the control channel, on every connection. */
    private final String lossChannel;

    private final Consumer<String> onLoss;
    private final Map<String, ReleaseQueue> channels = new ConcurrentHashMap<>();
    /** Orders membership changes with the (UN)SUBSCRIBE they cause; guards {@link #current}. */
    private final ReentrantLock wire = new ReentrantLock();

    private final ReentrantLock starting = new ReentrantLock();
    private volatile Listener current;
    private volatile Thread thread;
    private volatile boolean closed;
    /** Ends the reconnect loop's back-off at close: never an interrupt, which would end Jedis' read loop early. */
    private final CountDownLatch closing = new CountDownLatch(1);

    /**
     * @param redis the nodes that all receive every release message (one node; each Redlock node; a
     *              cluster client); the bus listens on one and moves to the next when it fails
     * @param onLoss    gets each message on {@code lossChannel}, on the pub/sub thread
     */
    public WakeupBus(RedisDeployment redis, String controlChannel, String lossChannel, Consumer<String> onLoss) {
        this.sources = redis.clients();
        this.controlChannel = controlChannel;
        this.lossChannel = lossChannel;
        this.onLoss = onLoss;
    }

    /**
     * Local handoff, prepared before this JVM sends the release of {@code channel}'s lock: {@link HandOver#give()}
     * (once the release is on its way, or its reply is in) wakes the longest local waiter instead of the release
     * message coming back over pub/sub; that message then wakes nobody else (one wake-up per release).
     */
    public HandOver handOver(String channel) {
        ReleaseQueue c = channels.get(channel);
        return c == null ? HandOver.NONE : new HandOver(c, c.heard()); // no waiters now: later ones hear the message
    }

    /** True if threads of this JVM wait for any lock (cheap: lets a release skip the handoff work). */
    public boolean anyWaiters() {
        return !channels.isEmpty();
    }

    /** True if threads of this JVM are waiting for a release on this channel. */
    public boolean hasWaiters(String channel) {
        ReleaseQueue c = channels.get(channel);
        return c != null && c.hasWaiters();
    }

    /**
     * Joins the wait queue of a channel, subscribing if this JVM is not yet listening to it.
     * Membership changes and the (UN)SUBSCRIBE they cause happen under one lock, so Redis always
     * sees them in the order they were decided (an UNSUBSCRIBE can never overtake a newer SUBSCRIBE).
     */
    public Ticket join(String channel) {
        startIfNeeded();
        wire.lock();
        try {
            ReleaseQueue c = channels.computeIfAbsent(channel, ReleaseQueue::new);
            Ticket t = new Ticket(this, c, c.join());
            if (!c.subscribeSent) {
                c.subscribeSent = send(l -> l.subscribe(channel));
            }
            return t;
        } finally {
            wire.unlock();
        }
    }

    void leave(Ticket t) {
        ReleaseQueue c = t.queue;
        wire.lock();
        try {
            if (!c.leave(t.place)) {
                return;
            }
            channels.remove(c.name, c);
            send(l -> l.unsubscribe(c.name));
        } finally {
            wire.unlock();
        }
    }

    /** Sends a (un)subscribe on the live connection; false if there is none yet (the connect sweep sends it then). */
    private boolean send(Consumer<Listener> command) {
        wire.lock();
        try {
            Listener l = current;
            if (closed || l == null || !l.isSubscribed()) {
                return false; // after close nothing more: every reply must be read before the connection goes back
            }
            try {
                command.accept(l);
                return true;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "pub/sub command failed; the reconnect loop will resubscribe", e);
                return false;
            }
        } finally {
            wire.unlock();
        }
    }

    /** Once the connection is confirmed, subscribes channels that waiters joined while it was connecting. */
    private void sweep(Listener l) {
        wire.lock();
        try {
            if (closed) {
                l.endOnce(); // closed while this connection was subscribing
                return;
            }
            for (ReleaseQueue c : channels.values()) {
                if (!c.subscribeSent) {
                    l.subscribe(c.name);
                    c.subscribeSent = true;
                }
            }
        } finally {
            wire.unlock();
        }
    }

    /** Opens the pub/sub connection in the background if it is not open yet (a volatile read when it is). */
    void startIfNeeded() {
        if (thread == null) {
            starting.lock();
            try {
                if (thread == null && !closed) {
                    Thread t = new Thread(this::run, "lockwarden-wakeup");
                    t.setDaemon(true);
                    t.start();
                    thread = t;
                }
            } finally {
                starting.unlock();
            }
        }
    }

    private void run() {
        long backoff = 50;
        int source = 0;
        while (!closed) {
            Listener l = new Listener();
            try {
                String[] subs;
                wire.lock();
                try {
                    current = l;
                    subs = channels.keySet().toArray(new String[0]);
                    for (ReleaseQueue c : channels.values()) {
                        c.subscribeSent = true;
                        c.listening = false; // until this connection's confirmation
                    }
                } finally {
                    wire.unlock();
                }
                String[] all = new String[subs.length + 2];
                all[0] = controlChannel;
                all[1] = lossChannel;
                System.arraycopy(subs, 0, all, 2, subs.length);
                sources.get(source % sources.size())
                        .subscribe(l, all); // blocks until unsubscribed or the connection drops
                backoff = 50;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.log(System.Logger.Level.DEBUG, "pub/sub connection lost; waiters fall back to timed retries", e);
                for (ReleaseQueue c : channels.values()) {
                    c.listening = false;
                    c.wakeAll(); // anything may have been released while we were deaf
                }
                source++; // try the next node: with Redlock any node hears every release
                if (source % sources.size() == 0) {
                    sleep(backoff);
                    backoff = Math.min(1000, backoff * 2);
                }
            } finally {
                wire.lock();
                try {
                    if (current == l) {
                        current = null;
                    }
                } finally {
                    wire.unlock();
                }
            }
        }
    }

    private void sleep(long ms) {
        try {
            closing.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            // not passed on: a set flag would make Jedis end its next read loop early (see Listener)
        }
    }

    @Override
    public void close() {
        wire.lock();
        try {
            closed = true;
            Listener l = current;
            if (l != null) {
                l.endOnce(); // if not subscribed yet: when the subscription is confirmed (sweep)
            }
        } finally {
            wire.unlock();
        }
        closing.countDown();
    }

    /**
     * The subscription on one connection. Jedis reads its replies until no channel is left, then gives the
     * connection back to the pool: so it is ended by exactly one UNSUBSCRIBE and never by an interrupt (either
     * would leave a reply unread there, for the next pooled call to take as its own).
     */
    private final class Listener extends JedisPubSub {
        /** Guarded by wire. */
        private boolean ended;

        /** Under wire: unsubscribes from everything, once, if subscribed. */
        void endOnce() {
            if (!ended && isSubscribed()) {
                ended = true;
                try {
                    unsubscribe();
                } catch (RuntimeException ignored) {
                    // the connection broke: Jedis drops it instead of pooling it
                }
            }
        }

        @Override
        public void onMessage(String channel, String message) {
            if (channel.equals(lossChannel)) {
                onLoss.accept(message);
                return;
            }
            ReleaseQueue c = channels.get(channel);
            if (c != null) {
                c.released();
            }
        }

        @Override
        public void onSubscribe(String channel, int count) {
            if (channel.equals(controlChannel)) {
                sweep(this);
                return;
            }
            ReleaseQueue c = channels.get(channel);
            if (c != null) {
                c.listening = true;
                c.confirmed.countDown();
            }
        }
    }
}
