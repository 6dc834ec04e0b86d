package dev.lockwarden.cdi;

import dev.lockwarden.LockManager;
import dev.lockwarden.cdi.beans.PaymentService;
import dev.lockwarden.testing.RedisServerExtension;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.spec.JavaArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of the tests that run {@code @Locked} beans in Weld (through Arquillian) against one real
 * redis-server. The order matters: the server starts, then the {@code lockwarden.*} system properties
 * the default producer reads are set, then Arquillian deploys (the LockManager is built at start-up).
 * {@link #otherJvm} is a second client, as if in another JVM: its locks contend with the container's.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
abstract class WeldOnRedisTest {
    /** The application name the container's LockManager gets from {@code lockwarden.application}. */
    static final String APPLICATION = "interceptor-test";

    @RegisterExtension
    @Order(1)
    static final RedisServerExtension redis = RedisServerExtension.nodes(1);

    @RegisterExtension
    @Order(2)
    static final BeforeAllCallback configure = context -> {
        System.setProperty("lockwarden.redis", redis.uri());
        System.setProperty("lockwarden.application", APPLICATION);
    };

    @RegisterExtension
    @Order(3)
    static final ArquillianExtension arquillian = new ArquillianExtension();

    static LockManager otherJvm;

    @BeforeAll
    static void startOtherJvm() {
        otherJvm = LockManager.builder()
                .redis(redis.uri())
                .application("other-jvm")
                .build();
    }

    /** A bean archive of the test beans ({@code dev.lockwarden.cdi.beans}), for a {@code @Deployment}. */
    static JavaArchive beansArchive(String name) {
        return ShrinkWrap.create(JavaArchive.class, name)
                .addPackage(PaymentService.class.getPackage())
                .addAsManifestResource(EmptyAsset.INSTANCE, "beans.xml");
    }

    @AfterAll
    static void stopOtherJvm() {
        System.clearProperty("lockwarden.redis");
        System.clearProperty("lockwarden.application");
        otherJvm.close();
    }
}
