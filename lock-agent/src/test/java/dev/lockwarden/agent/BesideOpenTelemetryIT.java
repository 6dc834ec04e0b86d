package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent next to OpenTelemetry's Java agent, both instrumenting the same method, in both {@code -javaagent}
 * orders: the method runs once, under its lock (held in Redis while the body runs, released after), and
 * OpenTelemetry's span for it is recorded too.
 */
@Timeout(180)
class BesideOpenTelemetryIT extends RedisAgentTestBase {
    private static final Map<String, String> NO_EXPORT =
            Map.of("OTEL_TRACES_EXPORTER", "none", "OTEL_METRICS_EXPORTER", "none", "OTEL_LOGS_EXPORTER", "none");

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bothAgentsInstrumentTheSameMethod(boolean lockwardenFirst) throws Exception {
        Path config = config("otel.conf", "com.acme.legacy.Guarded#hold key=\"hold:{0}\" ttl=10s");
        String otel = "-javaagent:" + otelJar();
        List<String> args = new ArrayList<>(
                lockwardenFirst
                        ? List.of(ChildJvm.javaagent(config), otel)
                        : List.of(otel, ChildJvm.javaagent(config)));
        // debug: OpenTelemetry logs its transformations and each span (its logging exporter), nothing leaves the host
        args.addAll(List.of(
                "-Dotel.javaagent.debug=true", "-Dotel.instrumentation.methods.include=com.acme.legacy.Guarded[hold]"));
        try (ChildJvm app = ChildJvm.startMain("com.acme.legacy.GuardedApp", args, NO_EXPORT, "hold", "1500")) {
            app.awaitLine("HOLDING h1", RUN);
            assertEquals(
                    "1", redis.node(0).command("EXISTS", "lock:{hold:h1}"), "the body runs under its lock\n" + app);
            assertEquals(0, app.waitFor(RUN), app.toString());
            assertTrue(app.stdout().contains("RETURNED held h1"), app.toString());
            assertEquals(1, app.stdout().split("HOLDING h1", -1).length - 1, "the body ran once\n" + app);
            assertTrue(
                    app.stderr()
                            .contains(
                                    "lockwarden-agent: instrumented com.acme.legacy.Guarded#hold(java.lang.String, long)"),
                    app.toString());
            assertTrue(app.stderr().contains("Transformed com.acme.legacy.Guarded"), "OpenTelemetry woven too\n" + app);
            assertTrue(app.stderr().contains("'Guarded.hold' : "), "OpenTelemetry's span recorded\n" + app);
        }
        assertEquals("0", redis.node(0).command("EXISTS", "lock:{hold:h1}"), "released after the method");
    }

    private static Path otelJar() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> Path.of(e).getFileName().toString().startsWith("opentelemetry-javaagent-"))
                .map(Path::of)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("opentelemetry-javaagent is not a test dependency"));
    }
}
