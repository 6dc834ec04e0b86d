package dev.lockwarden;

import java.time.Duration;

/**
 * A client JVM as the dashboard sees it: by its heartbeat, and by the locks its id holds.
 *
 * @param jvmId        the LockManager's random id
 * @param application  application name ("" if only known from a lock without details)
 * @param host         host name
 * @param pid          process id (0 if unknown)
 * @param version      its Lockwarden version, from its heartbeat ("" if unknown: dead, or older than this field)
 * @param javaVersion  its Java version ({@code java.version}), from its heartbeat ("" if unknown)
 * @param alive        whether its heartbeat key is present
 * @param heartbeatTtl time left on its heartbeat (zero when dead); it beats every few seconds
 * @param locksHeld    locks found held by this JVM in the scanned range
 */
public record ClientInfo(
        String jvmId,
        String application,
        String host,
        long pid,
        String version,
        String javaVersion,
        boolean alive,
        Duration heartbeatTtl,
        int locksHeld) {}
