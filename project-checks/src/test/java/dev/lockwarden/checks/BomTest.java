package dev.lockwarden.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lockwarden-bom manages exactly the published modules (those the build deploys and that ship a jar,
 * sources and javadoc), at the parent's version, with the parent's metadata; it has no parent, so
 * importing it manages no third-party version.
 */
class BomTest {
    private static final Path ROOT =
            Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    private final Pom parent = new Pom(ROOT.resolve("pom.xml"));
    private final Pom bom = new Pom(ROOT.resolve("lockwarden-bom/pom.xml"));

    @Test
    void theBomManagesExactlyThePublishedModules() {
        Set<String> published = new TreeSet<>();
        for (String module : allModules(parent, "")) {
            Pom pom = new Pom(ROOT.resolve(module).resolve("pom.xml"));
            boolean skipped = "true".equals(pom.text("properties/maven.deploy.skip"));
            if (!skipped && !"pom".equals(pom.text("packaging"))) {
                assertFalse(
                        "true".equals(pom.text("properties/maven.javadoc.skip")),
                        module + " is published without javadoc");
                assertFalse(
                        "true".equals(pom.text("properties/maven.source.skip")),
                        module + " is published without sources");
                published.add(pom.text("artifactId"));
            }
        }
        assertTrue(published.contains("lock-core"), published.toString());
        assertEquals(published, new TreeSet<>(bom.managedArtifactIds()));
    }

    @Test
    void theBomHasTheParentsVersionAndMetadataAndNoParent() {
        assertFalse(bom.has("parent"), "a parent would leak its dependencyManagement into every importer");
        assertEquals(parent.text("version"), bom.text("version"));
        assertEquals(parent.text("groupId"), bom.text("groupId"));
        for (String element :
                List.of("url", "licenses", "developers", "scm", "properties/project.build.outputTimestamp")) {
            assertEquals(parent.block(element), bom.block(element), element);
        }
        assertTrue(Files.isRegularFile(ROOT.resolve("LICENSE")));
    }

    /**
     * A project that imports the BOM gets every published module's version from it: with the BOM in a
     * throwaway local repository, {@code mvn -o validate} builds the model of a project that declares
     * each module without a version, and fails for an artifact the BOM does not manage.
     */
    @Test
    void aProjectImportingTheBomNeedsNoVersions(@TempDir Path dir) throws Exception {
        Path local = dir.resolve("local/dev/lockwarden/lockwarden-bom").resolve(bom.text("version"));
        Files.createDirectories(local);
        Files.copy(
                ROOT.resolve("lockwarden-bom/pom.xml"),
                local.resolve("lockwarden-bom-" + bom.text("version") + ".pom"));
        StringBuilder deps = new StringBuilder();
        for (String id : bom.managedArtifactIds()) {
            deps.append("<dependency><groupId>dev.lockwarden</groupId><artifactId>")
                    .append(id)
                    .append("</artifactId></dependency>");
        }
        assertEquals(0, validate(dir, deps.toString()).exit(), "the BOM's modules need no version");
        Mvn.Result unmanaged = validate(
                dir, "<dependency><groupId>dev.lockwarden</groupId><artifactId>lock-nothing</artifactId></dependency>");
        assertTrue(
                unmanaged.exit() != 0 && unmanaged.output().contains("lock-nothing:jar is missing"),
                unmanaged.output());
    }

    private Mvn.Result validate(Path dir, String dependencies) throws Exception {
        Path app = dir.resolve("app");
        Files.createDirectories(app);
        Files.writeString(
                app.resolve("pom.xml"),
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\"><modelVersion>4.0.0</modelVersion>"
                        + "<groupId>com.example</groupId><artifactId>app</artifactId><version>1</version>"
                        + "<dependencyManagement><dependencies><dependency><groupId>dev.lockwarden</groupId>"
                        + "<artifactId>lockwarden-bom</artifactId><version>" + bom.text("version")
                        + "</version><type>pom</type>"
                        + "<scope>import</scope></dependency></dependencies></dependencyManagement>"
                        + "<dependencies>" + dependencies + "</dependencies></project>",
                StandardCharsets.UTF_8);
        return Mvn.run(app, "-o", "-Dmaven.repo.local=" + dir.resolve("local"), "validate");
    }

    private static List<String> allModules(Pom pom, String prefix) {
        List<String> all = new ArrayList<>();
        for (String m : pom.modules()) {
            all.add(prefix + m);
            all.addAll(allModules(new Pom(ROOT.resolve(prefix + m).resolve("pom.xml")), prefix + m + "/"));
        }
        return all;
    }
}
