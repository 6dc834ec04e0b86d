package dev.lockwarden.examples;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the reactor built for the tests that start the agent and the legacy app as JVMs of their own (surefire
 * passes the paths as system properties, see examples/pom.xml). A missing one fails the test, never skips it.
 */
public final class BuiltArtifacts {
    private BuiltArtifacts() {}

    /** The shaded lock-agent jar ({@code lockwarden.agent.jar}). */
    public static Path agentJar() {
        return built("lockwarden.agent.jar", "lock-agent");
    }

    /** examples/legacy-app's runnable server jar ({@code legacy.app.jar}). */
    public static Path legacyAppJar() {
        return built("legacy.app.jar", "examples/legacy-app");
    }

    /** examples/legacy-app/lockwarden-agent.conf ({@code legacy.agent.config}). */
    public static Path legacyAgentConfig() {
        return built("legacy.agent.config", "examples");
    }

    private static Path built(String property, String module) {
        String value = System.getProperty(property);
        if (value == null || !Files.isRegularFile(Path.of(value))) {
            throw new IllegalStateException(
                    property + " = " + value + " is not a file: run the tests through the reactor"
                            + " (mvn -pl examples -am verify), which packages " + module + " first");
        }
        return Path.of(value).toAbsolutePath();
    }
}
