package dev.lockwarden.examples.shedlock;

import dev.lockwarden.LockManager;
import dev.lockwarden.shedlock.LockwardenLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * A plain ShedLock set-up: {@code @EnableScheduling}, {@code @EnableSchedulerLock} and one
 * {@link LockProvider} bean, which is Lockwarden's instead of one of ShedLock's providers.
 */
@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30S")
public class ShedLockAppConfig {

    /** Reads {@code lockwarden.*} settings (Redis URI, application name); closed with the context. */
    @Bean(destroyMethod = "close")
    public LockManager lockManager() {
        return LockManager.builder().build();
    }

    /** The one bean that changes when coming from ShedLock's Redis providers. */
    @Bean
    public LockProvider lockProvider(LockManager locks) {
        return new LockwardenLockProvider(locks);
    }

    @Bean
    public ReportJob reportJob(LockManager locks) {
        return new ReportJob(locks.application());
    }
}
