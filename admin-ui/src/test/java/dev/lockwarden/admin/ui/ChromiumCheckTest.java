package dev.lockwarden.admin.ui;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class ChromiumCheckTest {
    private static final String MISSING = "/nonexistent/chromium";

    @Test
    void onCiAMissingBrowserFailsNamingTheInstallCommand() {
        AssertionFailedError e =
                assertThrows(AssertionFailedError.class, () -> ChromiumCheck.require(MISSING, "/bin/sh", "true"));
        assertTrue(e.getMessage().contains("apt-get install -y chromium chromium-driver"), e.getMessage());
        assertTrue(e.getMessage().contains(MISSING), e.getMessage());
    }

    @Test
    void elsewhereAMissingBrowserSkipsWithTheInstallCommand() {
        for (String ci : new String[] {null, "", "false"}) {
            TestAbortedException e =
                    assertThrows(TestAbortedException.class, () -> ChromiumCheck.require("/bin/sh", MISSING, ci));
            assertTrue(e.getMessage().contains("apt-get install -y chromium chromium-driver"), e.getMessage());
        }
    }

    @Test
    void presentBinariesPass() {
        assertDoesNotThrow(() -> ChromiumCheck.require("/bin/sh", "/bin/sh", "true"));
    }
}
