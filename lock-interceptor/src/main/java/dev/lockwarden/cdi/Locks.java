package dev.lockwarden.cdi;

import java.util.ArrayDeque;

/**
 * Static access to the lock held by the current {@link Locked @Locked} invocation, for code that
 * is not a CDI bean. Beans can inject {@link LockContext} instead.
 *
 * <pre>{@code
 * long fence = Locks.current().fencingToken();
 * }</pre>
 */
public final class Locks {
    private static final ThreadLocal<ArrayDeque<CurrentLock>> STACK = new ThreadLocal<>();

    private Locks() {}

    /**
     * The innermost lock held by a {@code @Locked} method running on this thread. An asynchronous
     * {@code @Locked} method's lock is visible only until the method returns its stage, not in the
     * stage's callbacks on other threads.
     *
     * @return the innermost lock
     * @throws IllegalStateException when no {@code @Locked} method is running on this thread
     */
    public static CurrentLock current() {
        ArrayDeque<CurrentLock> stack = STACK.get();
        if (stack == null || stack.isEmpty()) {
            throw new IllegalStateException("no @Locked method is running on thread '"
                    + Thread.currentThread().getName()
                    + "': call LockContext.current() / Locks.current() only inside a @Locked method (or code it calls on"
                    + " the same thread), or take the lock yourself with LockManager.acquire(...)");
        }
        return stack.peek();
    }

    static void push(CurrentLock handle) {
        ArrayDeque<CurrentLock> stack = STACK.get();
        if (stack == null) {
            stack = new ArrayDeque<>(4);
            STACK.set(stack);
        }
        stack.push(handle);
    }

    static void pop() {
        ArrayDeque<CurrentLock> stack = STACK.get();
        if (stack != null) {
            stack.pop();
            if (stack.isEmpty()) {
                STACK.remove(); // no leak on pooled threads
            }
        }
    }
}
