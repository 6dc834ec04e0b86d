package dev.lockwarden.store;

import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The acquire and release calls of one Redlock node, pipelined on one connection: the calling thread writes
 * its command (threads queued behind it write theirs, the last one sends them all) and goes on to the next
 * node without waiting; this node's reader thread, blocked in the socket's read, reads the replies in order
 * and hands each to its callback. A call then costs no thread hand-off on its way out, and Redis reads and
 * answers several calls per system call (docs/benchmarks.md, "What bounds each number").
 * <p>
 * No caller waits for a slow node here. At most {@link #MAX_IN_FLIGHT_BYTES} of calls are written and not
 * answered yet — far less than the socket buffers hold, so a write never blocks on a stalled node — and the
 * calls beyond wait in order, as do calls made while the reader (re)connects, to be written as replies come
 * in. A call made while the oldest one has waited longer than the timeout (the client's socket timeout) drops
 * the connection and fails every waiting call: the node is stalled, and when it comes back it finds at most
 * the calls written before, never those made during the stall.
 * A broken connection (not a timeout) gives each call written to it one more try on the next one, as a pooled
 * call gets (the scripts are idempotent per token). Calls stay in the order they were made.
 * <p>
 * Over 200 lines because writing, reading, reconnecting and failing the waiting calls share one queue and
 * one lock; each piece is only correct together with the others.
 */
final class NodePipeline implements AutoCloseable {
    /** Bytes of calls written and not answered, beyond which calls wait unwritten (a node that falls behind). */
    static final int MAX_IN_FLIGHT_BYTES = 64 * 1024;
    /** Calls waiting unwritten beyond which a call fails at once (memory bound; the timeout comes first). */
    static final int MAX_BACKLOG = 10_000;

    private final String address;
    private final Supplier<SharedConnection.Socket> connect;
    private final long timeoutNanos;
    /** Guards {@link #socket}, writing to it and the counts; every holder unlocks through {@link #unlockSending}. */
    private final ReentrantLock writing = new ReentrantLock();
    /** Calls written to {@link #socket} without a reply yet, in the order they were written. */
    private final ConcurrentLinkedQueue<PipelinedCall> written = new ConcurrentLinkedQueue<>();
    /** Calls not written yet, in the order they were made. Guarded by {@link #writing}. */
    private final ArrayDeque<PipelinedCall> backlog = new ArrayDeque<>();

    private final Thread reader;
    private volatile SharedConnection.Socket socket;
    /** Guarded by {@link #writing}. */
    private int inFlightBytes;

    private volatile boolean idle;
    private volatile boolean closed;

    NodePipeline(String address, Supplier<SharedConnection.Socket> connect, long timeoutMillis, int index) {
        this.address = address;
        this.connect = connect;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        this.reader = new Thread(this::read, "lockwarden-redlock-reader-" + index);
        reader.setDaemon(true);
        reader.start();
    }

    String address() {
        return address;
    }

    /** Sends {@code command} (as {@code eval} after a NOSCRIPT); {@code done} gets the decoded reply or the failure, once. */
    void send(CommandObject<Object> command, CommandObject<Object> eval, PipelinedCall.Callback done) {
        PipelinedCall call = new PipelinedCall(command, eval, done);
        writing.lock();
        try {
            PipelinedCall oldest = written.peek() != null ? written.peek() : backlog.peekFirst();
            if (oldest != null && call.made - oldest.made > timeoutNanos) {
                failAllLocked(new JedisConnectionException(
                        "no reply within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms",
                        new SocketTimeoutException("read timed out")));
            }
            if (closed) {
                call.finish(
                        null,
                        new JedisConnectionException(
                                "the connection to Redis was closed (the lock manager was closed)"));
            } else if (backlog.size() >= MAX_BACKLOG) {
                call.finish(
                        null,
                        new JedisConnectionException(
                                MAX_BACKLOG + " calls wait to be sent",
                                new SocketTimeoutException("the node fell behind")));
            } else {
                backlog.addLast(call);
                writeBacklogLocked();
            }
        } finally {
            unlockSending();
        }
        if (idle) {
            LockSupport.unpark(reader);
        }
    }

    /** Writes waiting calls, in order, while connected and within the in-flight budget; under {@link #writing}. */
    private void writeBacklogLocked() {
        SharedConnection.Socket s = socket;
        while (s != null && !backlog.isEmpty() && (written.isEmpty() || inFlightBytes < MAX_IN_FLIGHT_BYTES)) {
            PipelinedCall c = backlog.pollFirst();
            c.socket = s;
            inFlightBytes += c.bytes;
            written.add(c);
            try {
                s.write(c.command.getArguments());
            } catch (RuntimeException e) {
                dropLocked(s, e);
                return;
            }
        }
    }

    /** Sends what is buffered unless a thread queued on {@link #writing} will (it writes, then sends all); unlocks. */
    private void unlockSending() {
        SharedConnection.Socket s = socket;
        try {
            if (s != null && !writing.hasQueuedThreads()) {
                s.send();
            }
        } catch (RuntimeException e) {
            dropLocked(s, e);
        } finally {
            writing.unlock();
        }
    }

    /** The reader: blocked in the socket's read while connected, connecting when calls wait for it, else parked. */
    private void read() {
        while (!closed) {
            SharedConnection.Socket s = socket;
            if (s == null) {
                idle = true;
                if (!hasBacklog()) {
                    LockSupport.park(this);
                    idle = false;
                    continue;
                }
                idle = false;
                connectAndWrite();
                continue;
            }
            Object reply;
            try {
                reply = s.nextReply();
            } catch (RuntimeException e) {
                drop(s, e); // also a server that closed the idle connection (restart)
                continue;
            }
            RuntimeException failure = reply instanceof JedisDataException e ? e : null;
            PipelinedCall head = written.peek();
            if (head == null || head.socket != s) {
                drop(s, new JedisConnectionException("a reply no call waits for")); // no-op if s was dropped
                continue;
            }
            boolean resent = false;
            writing.lock();
            try {
                if (written.peek() != head || head.socket != s) {
                    continue; // failed or moved to the next connection meanwhile
                }
                written.poll();
                inFlightBytes -= head.bytes;
                if (failure != null && LuaScript.isNoScript(failure) && head.eval != null && !closed) {
                    backlog.addFirst(new PipelinedCall(head.eval, null, head.done)); // the script cache was flushed
                    resent = true;
                }
                writeBacklogLocked();
            } finally {
                unlockSending();
            }
            if (!resent) {
                head.finish(failure != null ? null : reply, failure);
            }
        }
    }

    private boolean hasBacklog() {
        writing.lock();
        try {
            return !backlog.isEmpty() && !closed;
        } finally {
            unlockSending();
        }
    }

    /** Opens a connection (ready to read without a timeout), then writes the calls that waited for it, in order. */
    private void connectAndWrite() {
        SharedConnection.Socket s;
        try {
            s = connect.get();
        } catch (RuntimeException e) {
            writing.lock();
            try {
                failAllLocked(e instanceof JedisException ? e : new JedisConnectionException(e));
            } finally {
                unlockSending();
            }
            return;
        }
        writing.lock();
        try {
            if (closed) {
                s.dispose();
                return;
            }
            socket = s;
            writeBacklogLocked();
        } finally {
            unlockSending();
        }
    }

    private void drop(SharedConnection.Socket s, RuntimeException why) {
        writing.lock();
        try {
            dropLocked(s, why);
        } finally {
            unlockSending();
        }
    }

    /**
     * Closes {@code s} if it is still the connection in use. The calls written to it get one more try on the
     * next connection after a broken one (ahead of the calls not written yet), and fail after a timeout, on
     * close, or the second time.
     */
    private void dropLocked(SharedConnection.Socket s, RuntimeException why) {
        if (s == null || s != socket) {
            return;
        }
        socket = null;
        s.dispose();
        boolean retry = !closed && !(why.getCause() instanceof SocketTimeoutException);
        ArrayDeque<PipelinedCall> again = new ArrayDeque<>();
        PipelinedCall c;
        while ((c = written.poll()) != null) {
            inFlightBytes -= c.bytes;
            if (retry && !c.retried) {
                c.retried = true;
                c.socket = null;
                again.addLast(c);
            } else {
                c.finish(null, why);
            }
        }
        while ((c = again.pollLast()) != null) {
            backlog.addFirst(c);
        }
    }

    /** Fails every waiting call, written or not, and drops the connection. */
    private void failAllLocked(RuntimeException why) {
        if (socket != null) {
            socket.dispose();
            socket = null;
        }
        PipelinedCall c;
        while ((c = written.poll()) != null) {
            c.finish(null, why);
        }
        while ((c = backlog.pollFirst()) != null) {
            c.finish(null, why);
        }
        inFlightBytes = 0;
    }

    @Override
    public void close() {
        writing.lock();
        try {
            closed = true;
            failAllLocked(
                    new JedisConnectionException("the connection to Redis was closed (the lock manager was closed)"));
        } finally {
            unlockSending();
        }
        LockSupport.unpark(reader);
    }
}
