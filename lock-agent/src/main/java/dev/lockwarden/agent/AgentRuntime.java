package dev.lockwarden.agent;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockHandle;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockNotAcquiredException;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.OnBusy;
import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import dev.lockwarden.agent.config.OnLost;
import dev.lockwarden.agent.config.OnStoreDown;
import dev.lockwarden.spi.LockedBody;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Does the work behind {@link LockAdvice}: renders the lock name, acquires with source AGENT and
 * {@code Class#method}, applies the rule's policies and releases on exit. Fails closed: if no lock can be taken
 * (busy under FAIL, Redis unreachable, a null key argument, a key rejected when the method was instrumented,
 * JVM shutting down) the body does not run and the caller gets the exception.
 */
final class AgentRuntime implements LockBridge.Dispatcher {
    private final LazyLockManager locks;
    private final List<Binding> bindings = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    final AgentStats stats = new AgentStats();
    final Drain drain = new Drain();

    /** One instrumented method under one rule; {@code problem} set = every call fails with it. */
    private static final class Binding {
        final LockRule rule;
        final String method;
        final KeyTemplate key;
        final String problem;
        volatile LockOptions options;

        Binding(LockRule rule, String method, KeyTemplate key, String problem) {
            this.rule = rule;
            this.method = method;
            this.key = key;
            this.problem = problem;
        }

        LockOptions options(LockManager manager) {
            LockOptions o = options;
            if (o == null) {
                o = rule.options(manager.defaultOptions(), method);
                options = o;
            }
            return o;
        }
    }

    /** The acquired lock and the binding it belongs to, passed from enter to exit. */
    private record Held(LockHandle handle, Binding binding, Interrupter interrupter) {}

    AgentRuntime(AgentConfig config) {
        this.locks = new LazyLockManager(config.settings());
    }

    LazyLockManager locks() {
        return locks;
    }

    /**
     * Registers a method once (also across retransformations); returns the id bound into its advice.
     *
     * @param methodKey unique per method (class, name, descriptor)
     * @param method    {@code Class#method}, recorded as the lock's holder info
     * @param key       the key, or null when {@code problem} is set
     */
    synchronized int register(LockRule rule, String methodKey, String method, KeyTemplate key, String problem) {
        String id = rule.where() + "|" + methodKey;
        Integer known = ids.get(id);
        if (known != null) {
            return known;
        }
        bindings.add(new Binding(rule, method, key, problem));
        int next = bindings.size() - 1;
        ids.put(id, next);
        return next;
    }

    /** {@code Class#method} of binding {@code id}, or null when there is none. */
    String method(int id) {
        return id >= 0 && id < bindings.size() ? bindings.get(id).method : null;
    }

    @Override
    public Object enter(int id, Object[] args) {
        Binding b = bindings.get(id);
        if (b.problem != null) {
            return new LockBridge.Skip(new IllegalStateException(
                    AgentLog.PREFIX + b.problem + "; calls to " + b.method + " fail until the config is fixed"));
        }
        if (!drain.begin()) {
            return new LockBridge.Skip(new IllegalStateException(AgentLog.PREFIX + "the JVM is shutting down; "
                    + b.method + " was not started because no new agent lock is taken during the shutdown drain"));
        }
        stats.calls.increment();
        try {
            String name = b.key.render(args);
            LockManager manager = locks.get();
            LockHandle handle = manager.acquire(name, b.options(manager));
            Interrupter interrupter = null;
            if (b.rule.onLost() == OnLost.INTERRUPT) {
                interrupter = new Interrupter();
                handle.onLost(interrupter);
            }
            return new Held(handle, b, interrupter);
        } catch (LockNotAcquiredException busy) {
            drain.end();
            stats.busy.increment();
            return b.rule.onBusy() == OnBusy.SKIP ? LockBridge.Skip.QUIETLY : new LockBridge.Skip(busy);
        } catch (LockStoreException down) {
            drain.end();
            stats.storeDown.increment();
            if (b.rule.onStoreDown() == OnStoreDown.SKIP) {
                AgentLog.warn("Redis unreachable, " + b.method + " skipped (onStoreDown=skip, " + b.rule.where() + "): "
                        + down.getMessage());
                return LockBridge.Skip.QUIETLY;
            }
            return new LockBridge.Skip(down);
        } catch (Throwable t) {
            drain.end();
            return new LockBridge.Skip(t);
        }
    }

    @Override
    public Throwable exit(Object state, Throwable thrown) {
        if (state instanceof LockBridge.Skip skip) {
            return skip.failure != null ? skip.failure : thrown;
        }
        if (!(state instanceof Held held)) {
            return thrown;
        }
        LockHandle handle = held.handle();
        Throwable outcome = thrown;
        if (held.interrupter() != null) {
            held.interrupter().finish();
        }
        try {
            outcome = LockedBody.afterBody(handle, thrown, h -> {
                stats.lost.increment();
                OnLost onLost = held.binding().rule.onLost();
                if (onLost == OnLost.THROW && thrown == null || onLost == OnLost.INTERRUPT) {
                    return LockedBody.lostException(h); // interrupt: added to what the interrupted body threw
                }
                AgentLog.warn("lock '" + h.name() + "' (fence " + h.fencingToken() + ") was lost while "
                        + held.binding().method + " ran; the work may have overlapped another holder (onLost=log, "
                        + held.binding().rule.where() + ")");
                return null;
            });
            handle.release();
        } catch (RuntimeException e) {
            AgentLog.warn("release of lock '" + handle.name() + "' failed; it expires after its TTL: " + e);
        } finally {
            drain.end();
        }
        return outcome;
    }
}
