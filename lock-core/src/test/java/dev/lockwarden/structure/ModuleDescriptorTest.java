package dev.lockwarden.structure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** lock-core's module exports its API, fencing, config and SPI only: the machinery stays sealed. */
class ModuleDescriptorTest {
    @Test
    void exportsOnlyTheApiAndTheSpi() throws IOException {
        ModuleDescriptor d;
        try (InputStream in = Files.newInputStream(Path.of("target/classes/module-info.class"))) {
            d = ModuleDescriptor.read(in);
        }
        assertEquals("dev.lockwarden.core", d.name());
        Map<String, Set<String>> exports = new TreeMap<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            exports.put(e.source(), new TreeSet<>(e.targets()));
        }
        assertEquals(
                Map.of(
                        "dev.lockwarden", Set.of(),
                        "dev.lockwarden.fencing", Set.of(),
                        "dev.lockwarden.config", Set.of(),
                        "dev.lockwarden.spi", Set.of(),
                        "dev.lockwarden.metrics", Set.of("java.management")),
                exports);
        for (String sealed : new String[] {"internal", "store", "inspect"}) { // exist, yet are not exported
            assertEquals(true, Files.isDirectory(Path.of("target/classes/dev/lockwarden/" + sealed)), sealed);
        }
    }
}
