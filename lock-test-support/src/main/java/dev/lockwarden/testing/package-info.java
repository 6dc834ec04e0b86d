/**
 * Real Redis for JUnit 5 tests, without Docker.
 *
 * <ul>
 *   <li>{@link dev.lockwarden.testing.RedisServerExtension}: starts N standalone servers or a cluster for a
 *       test class and repairs injected faults before each test;</li>
 *   <li>{@link dev.lockwarden.testing.RedisNode}: one {@code redis-server} process on a free 127.0.0.1 port,
 *       with {@code kill}, {@code pause}/{@code resume} (SIGSTOP/SIGCONT) and {@code restart};</li>
 *   <li>{@link dev.lockwarden.testing.RedisCluster}: a Redis Cluster formed with plain CLUSTER commands,
 *       optionally with replicas; {@link dev.lockwarden.testing.ClusterFailover} fails its masters over;</li>
 *   <li>{@link dev.lockwarden.testing.RedisSentinelGroup}: a master, two replicas and three sentinels, with
 *       {@link dev.lockwarden.testing.ReplicationRelay}s that can hold the replication stream back;
 *       {@link dev.lockwarden.testing.Replication} waits on replication state;</li>
 *   <li>{@link dev.lockwarden.testing.TestCertificates}: a throw-away CA, server and client certificates and the
 *       PKCS12 key and trust stores (openssl + keytool) for tests against {@code redis-server --tls-auth-clients yes};
 *       {@link dev.lockwarden.testing.MutualTlsRedis} starts such a server with them;</li>
 *   <li>{@link dev.lockwarden.testing.PayaraMicroServer}: a real Jakarta EE server (Payara Micro, a child JVM)
 *       serving one WAR, for the tests that deploy on one;</li>
 *   <li>{@link dev.lockwarden.testing.RedisBinary}: which executable runs: {@code -Dlockwarden.redis.server},
 *       else {@code redis-server} on the {@code PATH}, else the binary shipped inside embedded-redis.</li>
 * </ul>
 *
 * <p>This package depends on no Lockwarden module and on no Redis client.
 */
package dev.lockwarden.testing;
