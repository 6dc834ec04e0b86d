package dev.lockwarden.admin.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.security.PasswordHasher;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The dashboard's own options reach {@link AdminConfig} over the settings they stand for, and a bad value stops
 * the start (exit 2) with a message naming the option and the fix, before any Redis is asked.
 */
@Timeout(60)
class AdminCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();
    private Path users;

    @BeforeEach
    void usersFile() throws Exception {
        users = Files.writeString(
                dir.resolve("users"), "ops = OPERATOR:" + PasswordHasher.hash("pw".toCharArray(), 10_000) + "\n");
    }

    /** The config the command would start with for these arguments. */
    private AdminConfig config(String... args) {
        AdminCommand command = new AdminCommand();
        new CommandLine(command).parseArgs(args);
        return AdminConfig.load(command.settings(), new Properties());
    }

    private int run(String... args) {
        CommandLine cl = AdminCommand.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    @Test
    void searchBudgetIsThirtySecondsUnlessGiven() {
        assertEquals(Duration.ofSeconds(30), config("--users", users.toString()).searchBudget());
        assertEquals(
                Duration.ofMinutes(2),
                config("--users", users.toString(), "--search-budget", "2m").searchBudget());
        assertEquals(
                Duration.ofMillis(500),
                config("--users", users.toString(), "--search-budget", "500ms").searchBudget());
        // control: the neighbouring option is read the same way and does not set the budget
        AdminConfig c = config("--users", users.toString(), "--long-held", "2m");
        assertEquals(Duration.ofMinutes(2), c.longHeld());
        assertEquals(Duration.ofSeconds(30), c.searchBudget());
    }

    @Test
    void aZeroOrNegativeSearchBudgetStopsTheStartNamingTheOptionAndTheFix() {
        for (String bad : new String[] {"0s", "0ms", "PT-5S"}) {
            err.getBuffer().setLength(0);
            assertEquals(2, run("--users", users.toString(), "--search-budget", bad, "--port", "0"), bad);
            String message = err.toString();
            assertTrue(
                    message.startsWith("lockwarden-admin: system property lockwarden.admin.search-budget='" + bad
                                    + "' is not above zero")
                            && message.contains("--search-budget")
                            && message.contains("positive duration, e.g. 30s"),
                    message);
        }
    }

    @Test
    void aSearchBudgetThatIsNoDurationStopsTheStartSayingHowToWriteOne() {
        assertEquals(2, run("--users", users.toString(), "--search-budget", "soon", "--port", "0"));
        assertTrue(
                err.toString().contains("lockwarden.admin.search-budget = 'soon' is not a duration")
                        && err.toString().contains("write e.g. 500ms, 30s"),
                err.toString());
    }
}
