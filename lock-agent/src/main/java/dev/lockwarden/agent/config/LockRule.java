package dev.lockwarden.agent.config;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.OnBusy;
import dev.lockwarden.spi.LockPolicy;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One line of the config file: which methods to lock and how.
 *
 * @param where          {@code file:line}, for messages
 * @param className      binary class name or pattern with {@code *} wildcards, e.g. {@code com.acme.Billing} or
 *                       {@code com.acme.jobs.*Job}
 * @param subtypes       written with a {@code +} suffix: the class or interface itself and every subtype
 * @param methodName     method name or pattern with {@code *} wildcards
 * @param parameterTypes parameter type names as written ({@code java.lang.String}, {@code int[]}); empty = every overload
 * @param key            lock name template, e.g. {@code payment:{0}}
 * @param ttl            TTL, or empty for {@code lockwarden.ttl}
 * @param waitUpTo       wait budget, or empty for {@code lockwarden.wait}
 * @param onBusy         what to do when the lock stays busy
 * @param autoRefresh    whether the watchdog refreshes the lock while the method runs
 * @param onLost         what to do when the lock was lost while the method ran
 * @param onStoreDown    what to do when Redis is unreachable
 * @param holdAtLeast    keep the lock at least this long after acquisition, or empty (release at once)
 * @param replicaAcks    replica acknowledgement ({@code replicaAcks=1/100ms} or {@code off}), or empty for the
 *                       manager's ({@code lockwarden.replica-acks})
 */
public record LockRule(
        String where,
        String className,
        boolean subtypes,
        String methodName,
        Optional<List<String>> parameterTypes,
        String key,
        Optional<Duration> ttl,
        Optional<Duration> waitUpTo,
        OnBusy onBusy,
        boolean autoRefresh,
        OnLost onLost,
        OnStoreDown onStoreDown,
        Optional<Duration> holdAtLeast,
        Optional<ReplicaAckSpec> replicaAcks) {

    /** True for a plain class name: no wildcard, no {@code +}. */
    public boolean exactClass() {
        return !subtypes && !className.contains("*");
    }

    /** The class part as written: {@code com.acme.Billing}, {@code com.acme.*Job}, {@code com.acme.Handler+}. */
    public String classPattern() {
        return className + (subtypes ? "+" : "");
    }

    /** {@code ClassPattern#methodPattern}. */
    public String methodId() {
        return classPattern() + "#" + methodName;
    }

    /** The methods as written in the file: {@code Class#method} or {@code Class#method(types)}. */
    public String spec() {
        return parameterTypes.isPresent()
                ? methodId() + "(" + String.join(", ", parameterTypes.get()) + ")"
                : methodId();
    }

    /**
     * The rule's policy as lock-core's SPI describes it for every declarative entry point ({@code @Locked} too).
     *
     * @param key the rule's key, parsed against the method (null when it could not be)
     */
    public LockPolicy policy(KeyTemplate key) {
        return new LockPolicy(key, ttl, waitUpTo, onBusy, autoRefresh, holdAtLeast.orElse(Duration.ZERO));
    }

    /**
     * The options for one acquire by {@code method} ({@code Class#method}), filling unset TTL/wait from the defaults;
     * with the rule's {@code replicaAcks=}, if any (else the manager's default applies).
     */
    public LockOptions options(LockOptions defaults, String method) {
        LockOptions o = policy(null).options(defaults, LockSource.AGENT, method);
        return replicaAcks.isPresent() ? replicaAcks.get().applyTo(o) : o;
    }
}
