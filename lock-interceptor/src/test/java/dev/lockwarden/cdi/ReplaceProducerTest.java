package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.lockwarden.LockInfo;
import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.alt.ReplacingProducer;
import dev.lockwarden.cdi.beans.PaymentService;
import dev.lockwarden.testing.RedisServerExtension;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An application's {@code @Produces @Alternative @Priority} LockManager replaces the default one,
 * for injection and for the interceptor. No {@code lockwarden.redis} is set here, so the default
 * producer would point at localhost:6379.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplaceProducerTest {

    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    /** Before Arquillian deploys: the LockManager is built at start-up, from these settings. */
    @RegisterExtension
    @Order(2)
    static final BeforeAllCallback configure = context -> {
        ReplacingProducer.redisUri = redis.uri();
    };

    @RegisterExtension
    @Order(3)
    static final ArquillianExtension arquillian = new ArquillianExtension();

    @Inject
    LockManager locks;

    @Inject
    PaymentService payments;

    @Deployment
    static JavaArchive deployment() {
        return ShrinkWrap.create(JavaArchive.class, "replace-test.jar")
                .addPackage(PaymentService.class.getPackage())
                .addClass(ReplacingProducer.class)
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    @Test
    void alternativeProducerIsUsedForInjectionAndByTheInterceptor() {
        assertNull(System.getProperty("lockwarden.redis"), "this test must not configure the default producer");
        assertEquals("replaced-app", locks.application());

        LockInfo info = payments.inside("TX-ALT").info().orElseThrow();
        assertEquals(
                "replaced-app", info.holder().application(), "the interceptor took the lock through the alternative");
    }
}
