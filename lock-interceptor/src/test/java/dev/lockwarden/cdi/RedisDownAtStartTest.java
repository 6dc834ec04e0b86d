package dev.lockwarden.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockStoreException;
import dev.lockwarden.cdi.broken.ValidBean;
import dev.lockwarden.testing.RedisNode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Redis stopped while the application starts: it deploys with a WARNING, {@code @Locked} calls
 * throw {@link LockStoreException} (never "busy", never skipped), and once a real redis-server
 * answers on that port the same container works normally.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisDownAtStartTest {

    @Test
    void invalidSettingsFailTheDeployment() {
        System.setProperty("lockwarden.ttl", "soon");
        try {
            RuntimeException e = assertThrows(
                    RuntimeException.class,
                    () -> new Weld("bad-settings")
                            .disableDiscovery()
                            .addBeanClasses(ValidBean.class)
                            .addExtension(new LockedExtension())
                            .initialize()
                            .close());
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t.getMessage()).append('\n');
            }
            assertTrue(all.toString().contains("lockwarden.ttl"), all.toString());
        } finally {
            System.clearProperty("lockwarden.ttl");
        }
    }

    @Test
    void deploysWithAWarningFailsCallsWhileDownThenServesOnceRedisAnswers() throws Exception {
        RedisNode redis = new RedisNode().start();
        redis.stop(); // keep its port, nothing listening on it
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger producerLog = Logger.getLogger(LockManagerProducer.class.getName());
        producerLog.addHandler(capture);
        System.setProperty("lockwarden.redis", redis.uri());
        try (WeldContainer container = new Weld("redis-down")
                .disableDiscovery()
                .addBeanClasses(ValidBean.class)
                .addExtension(new LockedExtension())
                .initialize()) {
            assertEquals(1, warnings.size(), "one WARNING at start-up");
            String warning = warnings.get(0).getMessage();
            assertTrue(
                    warning.contains("Redis does not answer at start-up") && warning.contains("LockStoreException"),
                    warning);

            ValidBean bean = container.select(ValidBean.class).get();
            var down = assertThrows(
                    LockStoreException.class,
                    () -> bean.count("A"),
                    "onBusy = SKIP, yet an unreachable Redis is an error, not a skip");
            assertTrue(down.getMessage() != null && !down.getMessage().isBlank());

            redis.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            Integer result = null;
            int attempts = 0;
            while (result == null && System.nanoTime() < deadline && attempts++ < 200) {
                try {
                    result = bean.count("A");
                } catch (LockStoreException stillDown) {
                    Thread.sleep(100);
                }
            }
            assertEquals(1, result, "normal service once Redis answers (after " + attempts + " attempts)");
            assertEquals(1, bean.count("A"));
        } finally {
            producerLog.removeHandler(capture);
            System.clearProperty("lockwarden.redis");
            redis.stop();
        }
    }
}
