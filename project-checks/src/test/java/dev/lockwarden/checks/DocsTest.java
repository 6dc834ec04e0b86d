package dev.lockwarden.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The READMEs and the pages under docs/ name only what exists: no dead relative link or heading, no
 * {@code dev.lockwarden} class, test, setting, script, option or module that the build does not have, and
 * in code blocks no class, method (of any module), constant, annotation attribute, or option or subcommand
 * of a module's program that its sources do not declare ({@link DocChecker}). The planted pages show each
 * kind of mistake is caught, on the line it is on.
 */
class DocsTest {
    private static Repo repo;
    private static DocChecker checker;

    @BeforeAll
    static void readTheRepository() {
        repo = Repo.fromModuleDir();
        checker = new DocChecker(repo);
    }

    @Test
    void everyReadmeNamesOnlyWhatExists() {
        List<Path> readmes = repo.readmes();
        assertTrue(readmes.size() >= 7, "READMEs found: " + readmes);
        List<String> problems = new ArrayList<>();
        readmes.forEach(r -> problems.addAll(checker.check(r)));
        assertEquals(List.of(), problems, String.join("\n", problems));
    }

    @Test
    void theDocsPagesContributingAndChangelogNameOnlyWhatExists() throws IOException {
        List<Path> pages =
                new ArrayList<>(List.of(repo.root.resolve("CONTRIBUTING.md"), repo.root.resolve("CHANGELOG.md")));
        try (Stream<Path> docs = Files.list(repo.root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<String> problems = new ArrayList<>();
        pages.forEach(p -> problems.addAll(checker.check(p)));
        assertEquals(List.of(), problems, String.join("\n", problems));
    }

    @Test
    void aPlantedPageWithOneMistakeOfEachKindGetsOneProblemEach() throws IOException {
        String text = """
                # Planted
                [fine](../../../README.md#quick-start) · [fine too](#planted) · [site](https://example.org/x)
                [dead file](../../../docs/no-such-page.md) · [dead heading](../../../README.md#no-such-heading)
                Uses `dev.lockwarden.NoSuchManager`; proved by `NoSuchBehaviourTest`; set `lockwarden.no-such-setting`
                or `LOCKWARDEN_NO_SUCH_VARIABLE`.

                ```java
                LockOptions opts = LockOptions.ttl(Duration.ofSeconds(30)).waitUpTo(Duration.ZERO).noSuchOption(true);
                LockManager locks = LockManager.builder().redis("redis://localhost:6379").noSuchSetting(1).build();
                try (LockHandle lock = locks.acquire("a", opts)) {
                    lock.noSuchMethod();
                }
                @Locked(value = "x", noSuchAttribute = "1s", onBusy = OnBusy.NO_SUCH_CONSTANT)
                NoSuchWidget widget = new NoSuchWidget(LockwardenLockProvider.currentFence());
                long fence = LockwardenLockProvider.noSuchFence();
                ```

                ```bash
                ./no-such-script --flag
                ./run-tests --no-such-option
                mvn -B -q -pl lock-core,no-such-module -am package
                java -jar lock-agent/target/no-such-agent.jar
                java -jar admin-ui/target/lockwarden-admin.jar --redis redis://localhost:6379 \\
                     --no-such-flag 1
                ```

                ```
                java -jar lock-agent.jar chek locks.conf app.jar
                ```
                """;
        Path page = plant(text);
        List<String> problems = checker.check(page);
        List<String> expected = List.of(
                "dead link ../../../docs/no-such-page.md",
                "dead link ../../../README.md#no-such-heading",
                "no class dev.lockwarden.NoSuchManager",
                "no test NoSuchBehaviourTest",
                "the setting lockwarden.no-such-setting",
                "the variable LOCKWARDEN_NO_SUCH_VARIABLE",
                "LockOptions has no method noSuchOption",
                "Builder has no method noSuchSetting",
                "LockHandle has no method noSuchMethod",
                "@Locked has no attribute noSuchAttribute",
                "OnBusy has no constant NO_SUCH_CONSTANT",
                "./no-such-script: no such file",
                "./run-tests: unknown option --no-such-option",
                "mvn -pl no-such-module: no such module",
                "lock-agent's POM does not build no-such-agent",
                "no class or annotation named NoSuchWidget",
                "LockwardenLockProvider has no method noSuchFence",
                "lockwarden-admin.jar: unknown option --no-such-flag",
                "lock-agent.jar: unknown command chek");
        for (String e : expected) {
            assertEquals(
                    1, problems.stream().filter(p -> p.contains(e)).count(), e + " in\n" + String.join("\n", problems));
        }
        assertEquals(expected.size(), problems.size(), String.join("\n", problems));
        // a problem in a code block names the page and the line the unknown name is on
        String name = repo.root.relativize(page).toString();
        for (String unknown : List.of("NoSuchWidget", "noSuchFence", "--no-such-flag", "chek")) {
            String at = name + ":" + lineOf(text, unknown) + " (code block): ";
            assertEquals(
                    1,
                    problems.stream()
                            .filter(p -> p.startsWith(at) && p.contains(unknown))
                            .count(),
                    at + unknown + " in\n" + String.join("\n", problems));
        }
    }

    private static int lineOf(String text, String word) {
        return text.substring(0, text.indexOf(word)).split("\n", -1).length;
    }

    @Test
    void aPlantedPageWithoutMistakesHasNoProblem() throws IOException {
        Path page = plant("""
                # Planted
                See [the quick start](../../../README.md#quick-start) and [fencing](../../../docs/fencing.md);
                `dev.lockwarden.LockManager`, `lockwarden.redis` or `LOCKWARDEN_REDIS`.

                ```java
                LockManager locks = LockManager.builder().redis("redis://localhost:6379").application("billing").build();
                try (LockHandle lock = locks.acquire("a", LockOptions.ttl(Duration.ofSeconds(30)).autoRefresh(true))) {
                    long fence = lock.fencingToken();
                }
                long fence = LockwardenLockProvider.currentFence();   // or Locks.current().fencingToken()
                @Inject LockContext context;
                @Locked(value = "job", ttl = "10s", onBusy = OnBusy.SKIP)
                void job() { context.current().fencingToken(); }
                ```

                ```bash
                ./run-tests --no-install -pl lock-core -am
                java -jar lock-agent/target/lock-agent.jar check locks.conf legacy.jar
                A=admin-ui/target/lockwarden-admin.jar
                java -jar $A --redis redis://localhost:6379 \\
                     --port 8080 --behind-tls-proxy hash-password
                ```

                ```
                java -jar lock-agent.jar attach <pid> locks.conf
                ```
                """);
        assertEquals(List.of(), checker.check(page));
    }

    /** A page three levels below the root (in this module's target/), so its relative links resolve like a README's. */
    private static Path plant(String text) throws IOException {
        Path dir = repo.root.resolve("project-checks/target/planted");
        Files.createDirectories(dir);
        Path page = Files.createTempFile(dir, "README-", ".md");
        Files.writeString(page, text, StandardCharsets.UTF_8);
        return page;
    }
}
