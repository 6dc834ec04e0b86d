package dev.lockwarden.admin.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Decides what a browser test does when Chromium or chromedriver is missing: on CI ({@code CI=true})
 * it fails, because a green build that never opened a browser proves nothing; elsewhere it is skipped
 * as a JUnit assumption. Both say how to install them.
 */
final class ChromiumCheck {
    static final String INSTALL = "apt-get install -y chromium chromium-driver";

    private ChromiumCheck() {}

    /** Checks the configured binaries against the real {@code CI} environment variable. */
    static void require(String chromium, String chromedriver) {
        require(chromium, chromedriver, System.getenv("CI"));
    }

    static void require(String chromium, String chromedriver, String ciVariable) {
        List<String> missing = new ArrayList<>();
        for (String exe : List.of(chromium, chromedriver)) {
            if (!Files.isExecutable(Path.of(exe))) {
                missing.add(exe);
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String message =
                String.join(" and ", missing) + " missing: the dashboard browser tests need Debian's Chromium; "
                        + "install it with `" + INSTALL + "` (or point -Dlockwarden.test.chromium / "
                        + "-Dlockwarden.test.chromedriver at the binaries)";
        if ("true".equalsIgnoreCase(ciVariable)) {
            Assertions.fail("CI=true: " + message);
        }
        Assumptions.abort("skipped: " + message);
    }
}
