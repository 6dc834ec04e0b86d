package dev.lockwarden.store;

import redis.clients.jedis.CommandObject;

/** One call on a {@link NodePipeline}, waiting for its reply. */
final class PipelinedCall {
    /** Where a call's outcome goes: on the pipeline's reader thread, or the caller's if it fails at once. */
    interface Callback {
        void done(Object reply, RuntimeException failure);
    }

    final CommandObject<Object> command;
    /** The same call as EVAL, to send after a NOSCRIPT; null once it is that. */
    final CommandObject<Object> eval;

    final Callback done;
    final long made = System.nanoTime();
    /** About what it takes in the socket buffers (its arguments and their framing). */
    final int bytes;
    /** The connection it was written to; null while it waits for one. */
    volatile SharedConnection.Socket socket;
    /** Guarded by the pipeline's write lock. */
    boolean retried;

    PipelinedCall(CommandObject<Object> command, CommandObject<Object> eval, Callback done) {
        this.command = command;
        this.eval = eval;
        this.done = done;
        int b = 0;
        for (redis.clients.jedis.args.Rawable r : command.getArguments()) {
            b += r.getRaw().length + 16;
        }
        this.bytes = b;
    }

    /** Hands the decoded reply, or the failure, to the callback (which only records it: nothing it throws escapes). */
    void finish(Object reply, RuntimeException failure) {
        Object value = null;
        RuntimeException error = failure;
        try {
            if (error == null) {
                value = command.getBuilder().build(reply);
            }
        } catch (RuntimeException e) {
            error = e;
        }
        try {
            done.done(value, error);
        } catch (RuntimeException ignored) {
            // the reader thread must go on
        }
    }
}
