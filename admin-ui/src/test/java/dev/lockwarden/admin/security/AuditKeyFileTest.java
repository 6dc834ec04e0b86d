package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.AuditSigner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit key: created once next to the users file (mode 600), read again at the next start, kept private. */
class AuditKeyFileTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

    @Test
    void createdAtTheFirstStartNextToTheUsersFileAndReadAgainLater() throws Exception {
        Optional<Path> place =
                AuditKeyFile.place(Optional.empty(), Optional.of(dir.resolve("users.properties")), Optional.empty());
        assertEquals(Optional.of(dir.resolve(AuditKeyFile.FILE_NAME)), place);

        AuditSigner first = AuditKeyFile.load(place, out);
        Path key = place.get();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertEquals(65, Files.readString(key).length(), "32 bytes in hex and a newline");
        assertTrue(printed.toString().contains("created " + key), printed.toString());
        assertFalse(printed.toString().contains(Files.readString(key).strip()), "the key is never printed");

        Map<String, String> record = new LinkedHashMap<>(Map.of("name", "pay:1", "operator", "alice"));
        first.seal(record, "0-0", "");
        assertTrue(AuditKeyFile.load(place, out).verify(record), "the next start reads the same key");
    }

    @Test
    void aKeyOthersCouldReadOrALinkIsRefused() throws Exception {
        Path key = dir.resolve("k");
        AuditKeyFile.load(Optional.of(key), out);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r-----"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> AuditKeyFile.load(Optional.of(key), out));
        assertTrue(e.getMessage().contains("chmod 600 " + key), e.getMessage());

        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), key);
        e = assertThrows(IllegalArgumentException.class, () -> AuditKeyFile.load(Optional.of(link), out));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());

        Files.writeString(key, "not hex\n");
        e = assertThrows(IllegalArgumentException.class, () -> AuditKeyFile.load(Optional.of(key), out));
        assertTrue(e.getMessage().contains("restore it from the backup"), e.getMessage());
    }
}
