package dev.lockwarden.agent.config;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.OnBusy;

/**
 * One line of the config file: which method to lock and how.
 *
 * @param where          {@code file:line}, for messages
 * @param className      binary name of the declaring class, e.g. {@code com.acme.Billing}
 * @param methodName     method name
 * @param parameterTypes parameter type names as written ({@code java.lang.String}, {@code int[]}); empty = every overload
 * @param key            lock name template, e.g. {@code payment:{0}}
 * @param ttl            TTL, or empty for {@code lockwarden.ttl}
 * @param waitUpTo       wait budget, or empty for {@code lockwarden.wait}
 * @param onBusy         what to do when the lock stays busy
 * @param autoRefresh    whether the watchdog refreshes the lock while the method runs
 */
public record LockRule(String where, String className, String methodName, Optional<List<String>> parameterTypes,
                       String key, Optional<Duration> ttl, Optional<Duration> waitUpTo, OnBusy onBusy,
                       boolean autoRefresh) {

    /** {@code Class#method} as recorded in the lock's holder info. */
    public String methodId() {
        return className + "#" + methodName;
    }

    /** The method as written in the file: {@code Class#method} or {@code Class#method(types)}. */
    public String spec() {
        return methodId() + parameterTypes.map(t -> "(" + String.join(", ", t) + ")").orElse("");
    }

    /** The options for one acquire, filling unset TTL/wait from the manager's defaults. */
    public LockOptions options(LockOptions defaults) {
        return LockOptions.ttl(ttl.orElse(defaults.ttl()))
                .waitUpTo(waitUpTo.orElse(defaults.waitUpTo()))
                .autoRefresh(autoRefresh)
                .source(LockSource.AGENT, methodId());
    }
}
