package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockHandle;
import dev.lockwarden.LockLostEvent;
import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import dev.lockwarden.testing.RedisNode;
import dev.lockwarden.testing.RedisReplyException;
import dev.lockwarden.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Locks view over a multi-node deployment, in real Chromium: locks held by another
 * {@link LockManager} are each listed exactly once with their holder and fence, and an operator's
 * force-release works there. Subclasses give the deployment (Redlock, Cluster).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the force-release test removes one of the listed locks
abstract class TopologyBrowserTest {
    static final int LOCKS = 12;
    static final String VICTIM = "topo:victim";
    private static final Pattern RELEASED =
            Pattern.compile("Released " + VICTIM + ": fence (\\d+) → (\\d+), audit id (\\S+)");

    private LockManager holder;
    private Dashboard dash;
    private final Map<String, Long> fences = new TreeMap<>();
    private LockHandle victim;
    private final CompletableFuture<LockLostEvent> lost = new CompletableFuture<>();

    /** The servers, registered on a static field of the subclass. */
    abstract RedisServerExtension redis();

    /** {@code builder.redlock(...)} or {@code builder.cluster(...)}. */
    abstract LockManager.Builder topology(LockManager.Builder builder);

    /** Checks the Nodes column of each lock (given as shown, by lock name). */
    abstract void checkNodes(Map<String, String> nodesByLock);

    /** How many servers answer for one lock's keys (every node for Redlock, its master for Cluster). */
    abstract int nodesOwningAKey();

    @BeforeAll
    void start() throws Exception {
        holder = topology(LockManager.builder()).application("billing").build();
        for (int i = 0; i < LOCKS; i++) {
            String name = "topo:" + i;
            fences.put(
                    name,
                    holder.acquire(
                                    name,
                                    LockOptions.ttl(Duration.ofSeconds(300)).autoRefresh(false))
                            .fencingToken());
        }
        victim = holder.acquire(VICTIM, LockOptions.ttl(Duration.ofSeconds(6)).autoRefresh(true));
        victim.onLost(lost::complete);
        fences.put(VICTIM, victim.fencingToken());
        dash = Dashboard.start(topology(LockManager.builder()), Fixtures.viewerAndOperator());
    }

    @AfterAll
    void stop() {
        Fixtures.closeAll(dash, holder);
    }

    @Test
    @Order(1)
    void eachLockIsListedExactlyOnceWithItsHolderAndFence() {
        dash.browser.loginAs("viewer");
        dash.browser.waitText("status", (LOCKS + 1) + " locks");
        List<String> names = new ArrayList<>(dash.browser.displayedTexts(By.cssSelector("b.lock-name")));
        names.sort(null);
        assertEquals(new ArrayList<>(fences.keySet()), names, "each lock once");
        Map<String, String> nodes = new TreeMap<>();
        for (Map.Entry<String, Long> e : fences.entrySet()) {
            assertEquals(List.of(Long.toString(e.getValue())), shown("fence", e.getKey()), "fence of " + e.getKey());
            assertEquals(List.of("billing"), shown("holder-app", e.getKey()), "holder of " + e.getKey());
            assertEquals(List.of("alive"), shown("holder-state", e.getKey()), "holder state of " + e.getKey());
            nodes.put(e.getKey(), shown("nodes", e.getKey()).get(0));
        }
        checkNodes(nodes);
    }

    @Test
    @Order(2)
    void anOperatorForceReleasesALockTheHolderLosesItAndTheAuditNamesTheOperator() throws Exception {
        awaitOnEveryOwningNode(
                VICTIM); // acquire returns on a majority; a late node's grant must not outlive the release
        dash.browser.loginAs("operator");
        dash.browser
                .waitFor(By.cssSelector("b.lock-name[data-lock='" + VICTIM + "']"))
                .click();
        dash.browser.waitVisible(By.id("force-release")).click();
        WebElement dialog = dash.browser.waitVisible(By.cssSelector("vaadin-confirm-dialog-overlay"));
        assertTrue(dialog.getText().contains("Fence: " + victim.fencingToken()), dialog.getText());
        dash.browser
                .driver
                .findElement(By.cssSelector("vaadin-button[slot='confirm-button']"))
                .click();

        WebElement result = dash.browser.waitVisible(By.id("release-result"));
        new WebDriverWait(dash.browser.driver, Duration.ofSeconds(10))
                .until(d -> result.getText().contains("audit id"));
        Matcher m = RELEASED.matcher(result.getText());
        assertTrue(m.find(), result.getText());
        assertEquals(victim.fencingToken(), Long.parseLong(m.group(1)));
        long newFence = Long.parseLong(m.group(2));
        assertTrue(newFence > victim.fencingToken(), result.getText());
        dash.browser.waitGone(By.cssSelector("b.lock-name[data-lock='" + VICTIM + "']"));
        dash.browser.waitText("status", LOCKS + " locks");

        assertEquals(VICTIM, lost.get(10, TimeUnit.SECONDS).lockName(), "the holder's onLost fires");
        assertFalse(victim.isHeld());
        assertTrue(dash.admin.inspector().get(VICTIM).isEmpty());
        assertEquals(
                nodesOwningAKey(),
                onOwningNodes("EXISTS", "lock:{" + VICTIM + "}").stream()
                        .filter("0"::equals)
                        .count(),
                "the lock key is gone on every node owning it");
        assertEquals(
                List.of(Long.toString(newFence)),
                onOwningNodes("GET", "lock:{" + VICTIM + "}:fence").stream()
                        .distinct()
                        .toList(),
                "every node's fence raised to the one shown");

        List<String> a = dash.browser.openView("audit", VICTIM);
        assertEquals(1, a.stream().filter(VICTIM::equals).count(), "one audit record: " + a);
        int at = a.indexOf(VICTIM);
        assertEquals("operator", a.get(at - 1), a.toString());
        assertEquals(Long.toString(victim.fencingToken()), a.get(at + 2), a.toString());
    }

    private List<String> shown(String cssClass, String lock) {
        return dash.browser.displayedTexts(By.cssSelector("span." + cssClass + "[data-lock='" + lock + "']"));
    }

    /** The replies of the nodes that own the key (a Cluster master that does not answers MOVED). */
    private List<String> onOwningNodes(String... command) {
        List<String> replies = new ArrayList<>();
        for (RedisNode n : redis().nodes()) {
            try {
                replies.add(n.command(command).trim());
            } catch (RedisReplyException moved) {
                // another master's slot
            }
        }
        assertEquals(nodesOwningAKey(), replies.size(), "nodes answering " + String.join(" ", command));
        return replies;
    }

    private void awaitOnEveryOwningNode(String lock) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (onOwningNodes("EXISTS", "lock:{" + lock + "}").contains("0")) {
            assertTrue(System.nanoTime() < deadline, lock + " is not on every node after 5 s");
            Thread.sleep(20);
        }
    }
}
