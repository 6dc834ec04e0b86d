package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.cdi.broken.BadReplicaAcks;
import dev.lockwarden.cdi.broken.BadTemplate;
import dev.lockwarden.cdi.broken.BadTtl;
import dev.lockwarden.cdi.broken.BadWait;
import dev.lockwarden.cdi.broken.FinalLocked;
import dev.lockwarden.cdi.broken.HoldTooLong;
import dev.lockwarden.cdi.broken.MissingProperty;
import dev.lockwarden.cdi.broken.NoToString;
import dev.lockwarden.cdi.broken.PrivateLocked;
import dev.lockwarden.cdi.broken.ReturnsFuture;
import dev.lockwarden.cdi.broken.SkipWithoutDefault;
import dev.lockwarden.cdi.broken.StaticLocked;
import dev.lockwarden.cdi.broken.TypeLevelBadTemplate;
import dev.lockwarden.cdi.broken.ValidBean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;

/**
 * A bad {@code @Locked} fails CDI deployment with a message naming {@code Class#method(params)} and
 * the fix. Boots Weld SE on one deliberately broken bean class at a time; no Redis is needed since
 * nothing is invoked.
 */
class DeploymentValidationTest {
    private static final AtomicInteger CONTAINERS = new AtomicInteger();

    @Test
    void unknownPlaceholderFailsDeployment() {
        String message = deploymentError(BadTemplate.class);
        assertTrue(message.contains(BadTemplate.class.getName() + "#charge(String)"), message);
        assertTrue(message.contains("'{nope}' names no parameter; parameters are [paymentId]"), message);
    }

    @Test
    void invalidTtlFailsDeployment() {
        String message = deploymentError(BadTtl.class);
        assertTrue(
                message.contains("@Locked(ttl) on " + BadTtl.class.getName()
                        + "#charge(String) = '10 parsecs' is not a duration"),
                message);
        assertTrue(message.contains("write e.g. 500ms, 30s"), message);
    }

    @Test
    void everyProblemIsReported() {
        String message = deploymentError(BadWait.class);
        assertTrue(
                message.contains(
                        "@Locked(ttl) on " + BadWait.class.getName() + "#charge(String): ttl PT48H is longer than"),
                message);
        assertTrue(
                message.contains("@Locked(waitUpTo) on " + BadWait.class.getName()
                        + "#charge(String) = 'soon' is not a duration"),
                message);
    }

    @Test
    void privateStaticAndFinalMethodsAreRejected() {
        String priv = deploymentError(PrivateLocked.class);
        assertTrue(
                priv.contains(
                        PrivateLocked.class.getName() + "#work() has no effect: CDI never intercepts private methods"),
                priv);
        String stat = deploymentError(StaticLocked.class);
        assertTrue(
                stat.contains(
                        StaticLocked.class.getName() + "#work() has no effect: CDI never intercepts static methods"),
                stat);
        String fin = deploymentError(FinalLocked.class);
        assertTrue(
                fin.contains(FinalLocked.class.getName()
                        + "#work(): the container cannot intercept a final method. Remove 'final'"),
                fin);
    }

    @Test
    void typeLevelTemplateIsCheckedForEveryMethod() {
        String message = deploymentError(TypeLevelBadTemplate.class);
        assertTrue(message.contains(TypeLevelBadTemplate.class.getName() + "#refund()"), message);
        assertTrue(message.contains("refers to parameter 0 but the method has 0 parameter(s)"), message);
        assertTrue(
                message.contains("from the @Locked on class " + TypeLevelBadTemplate.class.getName()
                        + ": give this method its own @Locked"),
                message);
        assertTrue(!message.contains("#debit("), "debit(String) is valid: " + message);
    }

    @Test
    void skipWithAResultThatHasNoSkippedValueFailsDeployment() {
        String message = deploymentError(SkipWithoutDefault.class);
        assertTrue(
                message.contains("@Locked(onBusy = SKIP) on " + SkipWithoutDefault.class.getName()
                        + "#receipt(String) returns java.lang.String, which has no value meaning \"skipped\""),
                message);
        assertTrue(
                message.contains(
                        "Return void, a primitive, Optional<String> or a CompletionStage, or use onBusy = FAIL"),
                message);
    }

    @Test
    void placeholderWhoseTypeHasNoToStringFailsDeployment() {
        String message = deploymentError(NoToString.class);
        assertTrue(
                message.contains(NoToString.class.getName() + "#ship(PlainOrder): {order} is a "
                        + NoToString.PlainOrder.class.getName() + ", which does not override toString()"),
                message);
        assertTrue(message.contains("Name a property instead (e.g. {order.id})"), message);
    }

    @Test
    void misspelledPropertyPathFailsDeployment() {
        String message = deploymentError(MissingProperty.class);
        assertTrue(
                message.contains("@Locked(\"order:{order.idd}\") on " + MissingProperty.class.getName()
                        + "#ship(Order): {order.idd}: " + MissingProperty.Order.class.getName()
                        + " has no accessor idd(), getIdd(), isIdd() or public field idd"),
                message);
    }

    @Test
    void futureResultFailsDeployment() {
        String message = deploymentError(ReturnsFuture.class);
        assertTrue(
                message.contains(
                        ReturnsFuture.class.getName() + "#run(String) returns java.util.concurrent.Future: the lock"
                                + " would be released when the method returns"),
                message);
    }

    @Test
    void holdAtLeastLongerThanTheTtlFailsDeployment() {
        String message = deploymentError(HoldTooLong.class);
        assertTrue(
                message.contains("@Locked(holdAtLeast) on " + HoldTooLong.class.getName()
                        + "#daily(): holdAtLeast PT5S is longer" + " than the ttl PT2S"),
                message);
    }

    @Test
    void badReplicaAcksFailDeployment() {
        String message = deploymentError(BadReplicaAcks.class);
        String on = "@Locked(replicaAcks) on " + BadReplicaAcks.class.getName();
        assertTrue(
                message.contains(on + "#charge(String) = '1 replica' is not replicas/timeout, e.g. 1/100ms"), message);
        assertTrue(
                message.contains(on + "#report(): replicaAcks timeout PT2S is not shorter than the ttl PT2S"), message);
        assertTrue(message.contains("shorten the timeout"), message);
        assertTrue(!message.contains("#audit()"), "off is valid: " + message);
    }

    @Test
    void currentLockExposesNoRelease() {
        var names = java.util.Arrays.stream(CurrentLock.class.getMethods())
                .map(java.lang.reflect.Method::getName)
                .sorted()
                .toList();
        assertEquals(java.util.List.of("checkHeld", "fencingToken", "isHeld", "name", "remainingTtl"), names);
    }

    @Test
    void validBeanDeploys() {
        try (WeldContainer container = weld(ValidBean.class).initialize()) {
            assertEquals(
                    ValidBean.class,
                    container.select(ValidBean.class).get().getClass().getSuperclass(),
                    "the bean is intercepted (a Weld subclass)");
        }
    }

    @Test
    void ourBeansFoundInABeanArchiveAreNotRegisteredTwice() {
        try (WeldContainer container = weld(ValidBean.class)
                .addBeanClasses(LockedInterceptor.class, LockContext.class, LockManagerProducer.class)
                .initialize()) {
            assertTrue(
                    container.select(dev.lockwarden.LockManager.class).isResolvable(),
                    "one default LockManager producer");
            assertTrue(container.select(LockContext.class).isResolvable(), "one LockContext");
        }
    }

    private static Weld weld(Class<?> beanClass) {
        return new Weld("locked-validation-" + CONTAINERS.incrementAndGet())
                .disableDiscovery()
                .addBeanClasses(beanClass)
                .addExtension(new LockedExtension());
    }

    /** Boots Weld on {@code beanClass}; returns the deployment error message (with its causes). */
    private static String deploymentError(Class<?> beanClass) {
        RuntimeException e = assertThrows(
                RuntimeException.class,
                () -> weld(beanClass).initialize().close(),
                beanClass.getSimpleName() + " must fail deployment");
        assertTrue(
                e instanceof jakarta.enterprise.inject.spi.DeploymentException
                        || e instanceof jakarta.enterprise.inject.spi.DefinitionException,
                "expected a CDI deployment/definition error, got " + e);
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
