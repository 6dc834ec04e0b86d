package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockManager;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisSentinelGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;

/** The health strip over Redis Sentinel: the master the sentinels name and its two replicas, in the browser. */
@Timeout(120)
class SentinelBrowserTest {

    @Test
    void theHealthStripNamesTheMasterAndItsReplicas() throws Exception {
        try (RedisSentinelGroup group = new RedisSentinelGroup(false).start();
                Dashboard dash = Dashboard.start(
                        LockManager.builder()
                                .sentinel(
                                        RedisSentinelGroup.MASTER_NAME,
                                        group.sentinelUris().toArray(String[]::new))
                                .shutdownHook(false),
                        Fixtures.viewerAndOperator())) {
            RedisNode master = group.master();
            dash.browser.loginAs("viewer");
            dash.browser.waitText("health-deployment", "Sentinel mymaster, master 127.0.0.1:" + master.port());
            dash.browser.waitText("health-replicas", "2 replicas: 127.0.0.1:");
            String replicas =
                    dash.browser.driver.findElement(By.id("health-replicas")).getText();
            for (RedisNode n : group.dataNodes()) {
                if (n != master) {
                    assertTrue(replicas.contains("127.0.0.1:" + n.port() + " online"), replicas);
                }
            }
        }
    }
}
