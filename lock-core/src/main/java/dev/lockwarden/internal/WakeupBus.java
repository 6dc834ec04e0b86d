package dev.lockwarden.internal;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;

/**
 * One pub/sub connection per {@code LockManager}, shared by every waiter of this JVM. A waiter
 * subscribes to its lock's release channel; each release message wakes the longest-waiting local
 * waiter of that lock (FIFO, so one release costs one retry, not a herd). If the connection drops, it
 * reconnects in the background and re-subscribes; waiters meanwhile fall back to their timed retry.
 */
public final class WakeupBus implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WakeupBus.class.getName());

    private final List<UnifiedJedis> sources;
    private final String controlChannel;
    private final Map<String, Channel> channels = new ConcurrentHashMap<>();
    private final Object wire = new Object();
    private volatile Listener current;
    private volatile Thread thread;
    private volatile boolean closed;

    /**
     * @param sources nodes that all receive every release message (one node; each Redlock node; a
     *                cluster client); the bus listens on one and moves to the next when it fails
     */
    public WakeupBus(List<UnifiedJedis> sources, String controlChannel) {
        this.sources = List.copyOf(sources);
        this.controlChannel = controlChannel;
    }

    /** True if threads of this JVM are waiting for a release on this channel. */
    public boolean hasWaiters(String channel) {
        Channel c = channels.get(channel);
        if (c == null) {
            return false;
        }
        synchronized (c) {
            return !c.dead && !c.queue.isEmpty();
        }
    }

    /**
     * Joins the wait queue of a channel, subscribing if this JVM is not yet listening to it.
     * Membership changes and the (UN)SUBSCRIBE they cause happen under one lock, so Redis always
     * sees them in the order they were decided (an UNSUBSCRIBE can never overtake a newer SUBSCRIBE).
     */
    public Ticket join(String channel) {
        startIfNeeded();
        synchronized (wire) {
            Channel c = channels.computeIfAbsent(channel, Channel::new);
            synchronized (c) {
                Ticket t = new Ticket(c);
                c.queue.addLast(t);
                if (!c.subscribeSent) {
                    c.subscribeSent = send(l -> l.subscribe(channel));
                }
                return t;
            }
        }
    }

    private void leave(Ticket t) {
        Channel c = t.channel;
        synchronized (wire) {
            synchronized (c) {
                boolean hadSignal = t.signaled;
                c.queue.remove(t);
                if (hadSignal) {
                    c.signalNext(); // pass an unused wake-up on, so it is not lost
                }
                if (!c.queue.isEmpty()) {
                    return;
                }
                c.dead = true;
                channels.remove(c.name, c);
            }
            send(l -> l.unsubscribe(c.name));
        }
    }

    /** Sends a (un)subscribe on the live connection; false if there is none yet (the connect sweep sends it then). */
    private boolean send(java.util.function.Consumer<Listener> command) {
        synchronized (wire) {
            Listener l = current;
            if (l == null || !l.isSubscribed()) {
                return false;
            }
            try {
                command.accept(l);
                return true;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "pub/sub command failed; the reconnect loop will resubscribe", e);
                return false;
            }
        }
    }

    /** Once the connection is confirmed, subscribes channels that waiters joined while it was connecting. */
    private void sweep(Listener l) {
        synchronized (wire) {
            for (Channel c : channels.values()) {
                if (!c.subscribeSent) {
                    l.subscribe(c.name);
                    c.subscribeSent = true;
                }
            }
        }
    }

    private void startIfNeeded() {
        if (thread == null) {
            synchronized (this) {
                if (thread == null && !closed) {
                    Thread t = new Thread(this::run, "lockwarden-wakeup");
                    t.setDaemon(true);
                    t.start();
                    thread = t;
                }
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
                synchronized (wire) {
                    current = l;
                    subs = channels.keySet().toArray(new String[0]);
                    for (Channel c : channels.values()) {
                        c.subscribeSent = true;
                    }
                }
                String[] all = new String[subs.length + 1];
                all[0] = controlChannel;
                System.arraycopy(subs, 0, all, 1, subs.length);
                sources.get(source % sources.size()).subscribe(l, all); // blocks until unsubscribed or the connection drops
                backoff = 50;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.log(System.Logger.Level.DEBUG, "pub/sub connection lost; waiters fall back to timed retries", e);
                for (Channel c : channels.values()) {
                    c.wakeAll(); // anything may have been released while we were deaf
                }
                source++; // try the next node: with Redlock any node hears every release
                if (source % sources.size() == 0) {
                    sleep(backoff);
                    backoff = Math.min(1000, backoff * 2);
                }
            } finally {
                synchronized (wire) {
                    if (current == l) {
                        current = null;
                    }
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (wire) {
            Listener l = current;
            if (l != null && l.isSubscribed()) {
                try {
                    l.unsubscribe();
                } catch (RuntimeException ignored) {
                    // the connection is going away anyway
                }
            }
        }
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private final class Listener extends JedisPubSub {
        @Override
        public void onMessage(String channel, String message) {
            Channel c = channels.get(channel);
            if (c != null) {
                c.signal();
            }
        }

        @Override
        public void onSubscribe(String channel, int count) {
            if (channel.equals(controlChannel)) {
                sweep(this);
                return;
            }
            Channel c = channels.get(channel);
            if (c != null) {
                c.confirmed.countDown();
            }
        }
    }

    /** Local waiters of one release channel, in arrival order. */
    private static final class Channel {
        final String name;
        final ArrayDeque<Ticket> queue = new ArrayDeque<>();
        final CountDownLatch confirmed = new CountDownLatch(1);
        volatile boolean subscribeSent;
        boolean dead;

        Channel(String name) {
            this.name = name;
        }

        synchronized void signal() {
            if (!signalNext()) {
                // everyone is already awake: nothing to do
                return;
            }
        }

        /** Signals the first waiter that has not been signalled yet; false if there is none. */
        boolean signalNext() {
            for (Ticket t : queue) {
                if (!t.signaled) {
                    t.signaled = true;
                    notifyAll();
                    return true;
                }
            }
            return false;
        }

        synchronized void wakeAll() {
            for (Ticket t : queue) {
                t.signaled = true;
            }
            notifyAll();
        }
    }

    /** A waiter's place in a channel's queue. */
    public final class Ticket implements AutoCloseable {
        private final Channel channel;
        private boolean signaled; // guarded by channel

        private Ticket(Channel channel) {
            this.channel = channel;
        }

        /** Waits until the subscription is confirmed by Redis (so no release can be missed), at most {@code millis}. */
        public boolean awaitSubscribed(long millis) throws InterruptedException {
            return channel.confirmed.await(millis, TimeUnit.MILLISECONDS);
        }

        /** Forgets a wake-up received before the next attempt; call right before each attempt. */
        public void reset() {
            synchronized (channel) {
                signaled = false;
            }
        }

        /** Waits for a release message or the timeout; true if woken by a message. */
        public boolean await(long millis) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            synchronized (channel) {
                while (!signaled) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(channel, left);
                }
                return true;
            }
        }

        /** Leaves the queue (passing on an unused wake-up). */
        @Override
        public void close() {
            leave(this);
        }
    }
}
