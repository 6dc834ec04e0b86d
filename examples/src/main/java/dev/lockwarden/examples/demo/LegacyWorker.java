package dev.lockwarden.examples.demo;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the launcher runs the legacy web app of {@code examples/legacy-app} under the agent: its own JVM,
 * {@code -javaagent:lock-agent.jar=config=lockwarden-agent.conf}, its charge counter and the agent's locks on the
 * demo's Redis. The card processor takes {@link #CARD_MILLIS} so its {@code payment:WEB-*} locks stay on the
 * dashboard long enough to see.
 */
final class LegacyWorker {
    /** The {@code application} of examples/legacy-app/lockwarden-agent.conf: the holder shown on the dashboard. */
    static final String APPLICATION = "legacy-payments";

    static final long CARD_MILLIS = 1500;

    private final Path agentJar;
    private final Path appJar;
    private final Path config;

    /** Fails, naming the build command, when the agent or the app is not built: the demo never runs it unlocked. */
    LegacyWorker(Path agentJar, Path appJar, Path config) {
        for (Path p : List.of(agentJar, appJar, config)) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(
                        p + " is missing: run `mvn -B -q -pl admin-ui,examples -am package -DskipTests`"
                                + " from the project root (./demo does), or pass --agent-jar / --legacy-app / --agent-config");
            }
        }
        this.agentJar = agentJar.toAbsolutePath();
        this.appJar = appJar.toAbsolutePath();
        this.config = config.toAbsolutePath();
    }

    /** {@code java -javaagent:… -jar legacy-app.jar}, listening on {@code port}. */
    List<String> command(String java, String redisUri, int port, Path tmp) {
        URI redis = URI.create(redisUri);
        return new ArrayList<>(List.of(
                java,
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + tmp,
                "-javaagent:" + agentJar + "=config=" + config,
                "-Dlockwarden.redis=" + redisUri,
                "-Dlegacy.redis=" + redis.getHost() + ":" + redis.getPort(),
                "-Dlegacy.port=" + port,
                "-Dlegacy.card.millis=" + CARD_MILLIS,
                "-Dlegacy.stopOnStdinClose=true",
                "-jar",
                appJar.toString()));
    }

    /** The lines of its output worth showing: the agent's report, errors, and that it listens. */
    static boolean shown(String line) {
        return line.startsWith("LISTENING")
                || line.contains("instrumented")
                || line.contains("rule(s)")
                || line.contains("ERROR")
                || line.contains("SEVERE")
                || line.contains("Exception");
    }
}
