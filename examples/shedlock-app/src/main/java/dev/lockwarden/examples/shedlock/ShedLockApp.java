package dev.lockwarden.examples.shedlock;

import java.time.Duration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Starts the scheduled job of {@link ShedLockAppConfig}; start it on as many servers as you like.
 * Redis comes from {@code lockwarden.redis} (system property) or {@code LOCKWARDEN_REDIS}
 * (environment), default {@code redis://localhost:6379}; Redlock and Cluster from
 * {@code lockwarden.redlock} / {@code lockwarden.cluster}.
 *
 * <pre>
 * mvn -q -pl examples/shedlock-app exec:java -Dlockwarden.redis=redis://localhost:6379
 * </pre>
 * An optional argument stops it after that many seconds.
 */
public final class ShedLockApp {
    private ShedLockApp() {}

    public static void main(String[] args) throws InterruptedException {
        Duration runFor = args.length > 0 ? Duration.ofSeconds(Long.parseLong(args[0])) : null;
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(ShedLockAppConfig.class);
        context.registerShutdownHook(); // Ctrl-C: the scheduler stops, then the LockManager gives its locks back
        System.out.println("READY " + context.getBean(ReportJob.class).application());
        if (runFor != null) {
            Thread.sleep(runFor.toMillis());
            context.close();
        }
    }
}
