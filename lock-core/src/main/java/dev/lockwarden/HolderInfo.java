package dev.lockwarden;

/**
 * Who holds a lock, as written into {@code lock:{name}:info} at acquire time.
 *
 * @param application application name ({@link LockManager.Builder#application})
 * @param host        host name of the holder JVM
 * @param pid         process id of the holder JVM
 * @param thread      name of the acquiring thread
 * @param jvmId       random id of the holder's {@link LockManager}; its heartbeat key tells liveness
 */
public record HolderInfo(String application, String host, long pid, String thread, String jvmId) {}
