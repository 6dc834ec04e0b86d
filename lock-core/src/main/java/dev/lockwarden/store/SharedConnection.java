package dev.lockwarden.store;

import java.net.SocketTimeoutException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One connection to a node that many threads' calls share (the acquire and release scripts): each caller
 * writes its command under a lock, and Redis answers in the order it was sent, so the calls waiting for a
 * reply take turns reading: the first waiting caller reads replies and hands each to its caller until its
 * own arrives, then passes the reading on (leader/followers). With many threads, Redis then reads several
 * commands and writes several replies per system call instead of one each — on a machine where Redis and
 * the clients share the cores, that per-call system-call cost is most of what a lock cycle costs Redis
 * (docs/benchmarks.md, "One shared connection").
 * <p>
 * Failures stay those of a pooled Jedis call, so {@link RedisNodeClient}'s mapping is unchanged: a broken
 * socket or a read timeout fails every call waiting on this connection with a
 * {@link JedisConnectionException} (a timeout's cause is a {@link SocketTimeoutException}), and the next call
 * opens a new connection; an error reply ({@code NOSCRIPT}, {@code WRONGTYPE}) fails its own call only.
 * Outcomes are what they are with a pool: a call that timed out may still have run in Redis, which is why
 * the scripts sent here are idempotent per token.
 * <p>
 * Over 200 lines because writing, the reader hand-off and failing every waiting call on a broken socket
 * share one queue and one lock; each piece is only correct together with the others.
 */
final class SharedConnection implements AutoCloseable {
    private final Supplier<Socket> connect;
    /** How long a caller waits in all before it gives up on a connection that never answers. */
    private final long giveUpNanos;
    /** Guards {@link #socket} and writing to it; only writers take it, or a caller that drops the socket. */
    private final ReentrantLock writing = new ReentrantLock();

    private Socket socket;
    /**
     * Calls written to {@link #socket} whose reply has not been read yet, in the order they were sent (added
     * while writing; taken by the reader, or all of them when the socket is dropped).
     */
    private final ConcurrentLinkedQueue<Call> waiting = new ConcurrentLinkedQueue<>();
    /** True while one caller reads replies. */
    private final AtomicBoolean reading = new AtomicBoolean();

    private volatile boolean closed;

    SharedConnection(Supplier<Socket> connect, long timeoutMillis) {
        this.connect = connect;
        this.giveUpNanos = TimeUnit.MILLISECONDS.toNanos(2 * timeoutMillis + 1_000);
    }

    /** A shared connection to {@code node} with the client configuration of its pool (auth, database, TLS, timeouts). */
    static SharedConnection to(HostAndPort node, JedisClientConfig config) {
        return new SharedConnection(() -> new Socket(node, config), config.getSocketTimeoutMillis());
    }

    /**
     * Sends {@code command} and waits for its reply (bounded by the socket timeout).
     *
     * @throws JedisConnectionException the connection failed or timed out (this call may have run)
     * @throws JedisDataException       Redis answered this call with an error
     */
    <T> T execute(CommandObject<T> command) {
        return execute(command, null);
    }

    /**
     * {@link #execute(CommandObject)}, running {@code sent} (if not null) once the command is in the
     * connection's buffer and before it is flushed: every call sent on this connection after that reaches
     * Redis after it, in order, and nothing the command causes in Redis can have happened yet.
     */
    <T> T execute(CommandObject<T> command, Runnable sent) {
        Call call = send(command.getArguments(), sent);
        awaitReply(call);
        if (call.failure != null) {
            if (call.failure instanceof JedisDataException e) {
                throw e;
            }
            // a new exception per caller: the stack trace is this caller's, the cause the connection's
            throw new JedisConnectionException(call.failure.getMessage(), call.failure);
        }
        return command.getBuilder().build(call.reply);
    }

    /** Writes {@code args}; {@code written} (if not null) runs after the write and before the flush, under the lock. */
    private Call send(CommandArguments args, Runnable written) {
        Call call = new Call(Thread.currentThread());
        writing.lock();
        try {
            if (closed) {
                throw new JedisConnectionException("the connection to Redis is closed (the lock manager was closed)");
            }
            if (socket == null) {
                socket = connect.get(); // throws JedisConnectionException if Redis cannot be reached
            }
            call.socket = socket;
            waiting.add(call); // in the order of writing, which is the order of the replies
            try {
                socket.write(args);
                if (written != null) {
                    // before the flush: nothing this call causes in Redis (its reply, a release message on
                    // another connection) can come back before this has run; calls written later still follow
                    written.run();
                }
                // the threads queued here write next: the last of them sends all (one system call for several);
                // anyone else who takes this lock drops the socket, failing every call on it
                if (!writing.hasQueuedThreads()) {
                    socket.send();
                }
            } catch (RuntimeException e) {
                // the stream may hold part of this call, or calls not sent yet: fail them all and start over
                dropLocked(socket, e);
                throw e;
            }
        } finally {
            writing.unlock();
        }
        return call;
    }

    private void awaitReply(Call call) {
        boolean interrupted = false;
        long start = System.nanoTime();
        while (!call.done) {
            if (reading.compareAndSet(false, true)) {
                try {
                    readUntil(call);
                } finally {
                    reading.set(false);
                    wakeNextReader();
                }
            } else {
                LockSupport.parkNanos(this, giveUpNanos);
                // a blocking socket read ignores interrupts too: keep waiting, keep the flag for the caller
                interrupted |= Thread.interrupted();
                if (!call.done && System.nanoTime() - start > giveUpNanos) {
                    // the reader should have timed out long ago: close the socket so that every caller fails
                    drop(
                            call.socket,
                            new JedisConnectionException(
                                    "no reply from Redis within " + TimeUnit.NANOSECONDS.toMillis(giveUpNanos) + " ms",
                                    new SocketTimeoutException("read timed out")));
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads replies in order and hands each to its caller until {@code mine} is answered. */
    private void readUntil(Call mine) {
        Socket s = mine.socket;
        while (!mine.done) {
            Call head = waiting.peek();
            if (head == null || head.socket != s) {
                return; // the socket was dropped meanwhile: every call on it has failed already
            }
            Object reply;
            try {
                reply = s.nextReply();
            } catch (RuntimeException e) {
                drop(s, e);
                return;
            }
            if (!waiting.remove(head)) {
                return; // dropped by a caller that gave up: the reply belongs to no one any more
            }
            head.finish(
                    reply instanceof JedisDataException ? null : reply,
                    reply instanceof JedisDataException e ? e : null);
        }
    }

    /** After a reader stops: the oldest waiting caller (if any) takes over the reading. */
    private void wakeNextReader() {
        Call next = waiting.peek();
        if (next != null) {
            LockSupport.unpark(next.thread);
        }
    }

    private void drop(Socket s, RuntimeException why) {
        writing.lock();
        try {
            dropLocked(s, why);
        } finally {
            writing.unlock();
        }
    }

    /** Fails every call waiting on {@code s} and closes it, if it is still the socket in use. */
    private void dropLocked(Socket s, RuntimeException why) {
        if (s == null || s != socket) {
            return;
        }
        socket = null;
        Call c;
        while ((c = waiting.poll()) != null) {
            c.finish(null, why);
        }
        s.dispose();
    }

    @Override
    public void close() {
        writing.lock();
        try {
            closed = true;
            dropLocked(
                    socket,
                    new JedisConnectionException("the connection to Redis was closed (the lock manager was closed)"));
        } finally {
            writing.unlock();
        }
    }

    /** One call waiting for its reply. */
    private static final class Call {
        final Thread thread;
        Socket socket;
        Object reply;
        RuntimeException failure;
        volatile boolean done;

        Call(Thread thread) {
            this.thread = thread;
        }

        void finish(Object reply, RuntimeException failure) {
            this.reply = reply;
            this.failure = failure;
            this.done = true; // publishes reply and failure
            LockSupport.unpark(thread);
        }
    }

    /** Jedis' connection, with its buffered write and its flush apart. */
    static final class Socket extends Connection {
        Socket(HostAndPort node, JedisClientConfig config) {
            super(node, config);
        }

        /** Buffers one command. */
        void write(CommandArguments args) {
            sendCommand(args);
        }

        /**
         * The next reply; an error reply is returned as its {@link JedisDataException} (it fails its own call
         * only: the stream stays in step); a broken connection or a timeout throws.
         */
        Object nextReply() {
            try {
                return getUnflushedObject();
            } catch (JedisDataException e) {
                return e;
            }
        }

        /** Sends what is buffered. */
        void send() {
            flush();
        }

        void dispose() {
            try {
                disconnect();
            } catch (RuntimeException ignored) {
                // closing a broken socket: nothing more to do
            }
        }
    }
}
