/**
 * Lockwarden's lock client: distributed locks on Redis with fencing tokens.
 * <p>
 * Exported: {@code dev.lockwarden} (the API: {@code LockManager}, {@code LockHandle},
 * {@code LockOptions}, {@code LockInspector}, exceptions), {@code dev.lockwarden.fencing}
 * (fence checks in your database), {@code dev.lockwarden.config} (the shared settings names and
 * duration syntax, which {@code LockManager.Builder.settings(...)} takes) and
 * {@code dev.lockwarden.spi} (what the interceptor, agent and dashboard need; not for
 * applications). The machinery ({@code internal}, {@code store}, {@code inspect}) is not exported;
 * {@code metrics} only to JMX, which reads its MXBean interfaces reflectively.
 */
module dev.lockwarden.core {
    requires redis.clients.jedis;
    requires org.apache.commons.pool2;
    requires java.management;
    requires transitive java.sql;
    // Micrometer binding only when the application has Micrometer; @ConstructorProperties for JMX
    requires static micrometer.core;
    requires static java.desktop;

    exports dev.lockwarden;
    exports dev.lockwarden.fencing;
    exports dev.lockwarden.config;
    exports dev.lockwarden.spi;
    exports dev.lockwarden.metrics to
            java.management;
}
