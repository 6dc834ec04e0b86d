package dev.lockwarden.store;

import dev.lockwarden.LockStoreException;

/**
 * The answer of one node to a call made on every node of a {@link RedisDeployment}: a value, or
 * the failure (an error or no answer in time), or neither when the outcome was decided before this
 * node answered ({@code pending}).
 *
 * @param node    the node's index in {@link RedisDeployment#nodes()}
 * @param value   the node's answer, when {@link #ok()}
 * @param error   why the node gave none (names the node), or null
 * @param pending the caller stopped waiting before this node answered, without an error
 * @param <T>     type of the answer
 */
public record NodeReply<T>(int node, T value, LockStoreException error, boolean pending) {
    NodeReply(int node, T value, LockStoreException error) {
        this(node, value, error, false);
    }

    /** The node answered. */
    public boolean ok() {
        return error == null && !pending;
    }
}
