package dev.lockwarden.agent;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostException;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;
import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;

/**
 * Does the work behind {@link LockAdvice}: renders the lock name, acquires with source AGENT and
 * {@code Class#method}, applies the rule's onBusy policy and releases on exit. Fails closed: if no
 * lock can be taken (busy under FAIL, Redis unreachable, a null key argument) the body does not run
 * and the caller gets the exception.
 */
final class AgentRuntime implements LockBridge.Dispatcher {
    private final LazyLockManager locks;
    private final List<Binding> bindings = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();

    /** One instrumented method under one rule. */
    private static final class Binding {
        final LockRule rule;
        final KeyTemplate key;
        volatile LockOptions options;

        Binding(LockRule rule, KeyTemplate key) {
            this.rule = rule;
            this.key = key;
        }

        LockOptions options(LockManager manager) {
            LockOptions o = options;
            if (o == null) {
                o = rule.options(manager.defaultOptions());
                options = o;
            }
            return o;
        }
    }

    AgentRuntime(AgentConfig config) {
        this.locks = new LazyLockManager(config.settings());
    }

    /** Registers a method once (also across retransformations); returns the id bound into its advice. */
    synchronized int register(LockRule rule, String methodKey, KeyTemplate key) {
        return ids.computeIfAbsent(rule.where() + "|" + methodKey, k -> {
            bindings.add(new Binding(rule, key));
            return bindings.size() - 1;
        });
    }

    @Override
    public Object enter(int id, Object[] args) {
        Binding b = bindings.get(id);
        try {
            String name = b.key.render(args);
            LockManager manager = locks.get();
            return manager.acquire(name, b.options(manager));
        } catch (LockNotAcquiredException busy) {
            return b.rule.onBusy() == OnBusy.SKIP ? LockBridge.Skip.QUIETLY : new LockBridge.Skip(busy);
        } catch (Throwable t) {
            return new LockBridge.Skip(t);
        }
    }

    @Override
    public Throwable exit(Object state, Throwable thrown) {
        if (state instanceof LockBridge.Skip skip) {
            return skip.failure != null ? skip.failure : thrown;
        }
        if (!(state instanceof LockHandle handle)) {
            return thrown;
        }
        Throwable lost = null;
        try {
            if (thrown == null) {
                handle.checkHeld();
            }
        } catch (LockLostException e) {
            lost = e;
        }
        try {
            handle.release();
        } catch (RuntimeException e) {
            System.err.println(AgentStartup.PREFIX + "release of lock '" + handle.name()
                    + "' failed; it expires after its TTL: " + e);
        }
        return thrown != null ? thrown : lost;
    }
}
