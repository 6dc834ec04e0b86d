package dev.lockwarden.cdi;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import dev.lockwarden.OnBusy;
import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Runs the annotated method of a CDI bean under a distributed lock.
 *
 * <pre>{@code
 * @Locked("payment:{paymentId}")                       // needs javac -parameters; or "payment:{0}"
 * public Receipt charge(String paymentId, long cents) { ... }
 *
 * @Locked(value = "report:daily", ttl = "10m", onBusy = OnBusy.SKIP)
 * public void dailyReport() { ... }                    // runs on one node only; the others skip
 * }</pre>
 *
 * <p>A method returning {@code CompletionStage} or {@code CompletableFuture} holds the lock until
 * the stage completes. Inside a JTA transaction the lock is released after the transaction
 * completes, and a lock lost meanwhile marks the transaction rollback-only.
 *
 * <p>Every attribute is validated when the CDI container starts: a bad template or duration fails
 * deployment with a message naming {@code Class#method} and the fix. On a type, the annotation
 * applies to every business method of the bean that has no {@code @Locked} of its own.
 *
 * @see LockContext
 */
@Inherited
@Documented
@InterceptorBinding
@Retention(RUNTIME)
@Target({METHOD, TYPE})
public @interface Locked {

    /**
     * Lock name template: literals plus placeholders naming a parameter by index ({@code {0}}) or
     * by name ({@code {paymentId}}, needs {@code -parameters}), optionally with a property path
     * ({@code {order.id}}). Empty (the default): {@code SimpleClassName.methodName}, one lock per method.
     *
     * @return the lock name template
     */
    @Nonbinding
    String value() default "";

    /** {@return lease TTL such as {@code 30s}, {@code 2m} or {@code PT30S}; empty = the LockManager's default ({@code lockwarden.ttl}, 30s)} */
    @Nonbinding
    String ttl() default "";

    /** {@return how long to wait for a busy lock ({@code 0s} = not at all); empty = the LockManager's default ({@code lockwarden.wait}, 0s)} */
    @Nonbinding
    String waitUpTo() default "";

    /** {@return what to do when the lock stays busy: throw {@link dev.lockwarden.LockNotAcquiredException} or skip the body} */
    @Nonbinding
    OnBusy onBusy() default OnBusy.FAIL;

    /** {@return whether the watchdog keeps the lock alive while the method runs} */
    @Nonbinding
    boolean autoRefresh() default true;

    /**
     * Keep the lock at least this long after it was taken, even if the method returns sooner (like
     * ShedLock's {@code lockAtLeastFor}): "once per period" for scheduled jobs on several nodes whose
     * timers fire a little apart. {@code 0s} (the default) releases at once; at most the TTL.
     *
     * @return the minimum hold time, such as {@code 10s}
     */
    @Nonbinding
    String holdAtLeast() default "0s";

    /**
     * Hand the lock out only after this many replicas of the Redis master acknowledged it, written
     * {@code replicas/timeout} as the setting {@code lockwarden.replica-acks}: {@code "1/100ms"}; {@code "off"}
     * switches it off for this method. Too few acknowledgements: {@link dev.lockwarden.LockStoreException}, the
     * body does not run. Single node, Sentinel or Cluster, not Redlock (docs/failover.md). Empty (the default): the
     * LockManager's ({@code lockwarden.replica-acks}, off).
     *
     * @return replicas and timeout such as {@code 1/100ms}, {@code off}, or empty for the manager's default
     */
    @Nonbinding
    String replicaAcks() default "";
}
