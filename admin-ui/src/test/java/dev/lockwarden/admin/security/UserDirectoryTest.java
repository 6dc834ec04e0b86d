package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.config.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserDirectoryTest {
    private static final String ALICE = PasswordHasher.hash("alice-pw".toCharArray(), 10_000);
    private static final String BOB = PasswordHasher.hash("bob-pw".toCharArray(), 10_000);

    @TempDir
    Path dir;

    @Test
    void readsTheUsersFileAndPropertiesWin() throws Exception {
        Path file = dir.resolve("users.properties");
        Files.writeString(file, "# comment\n\nalice = OPERATOR:" + ALICE + "\nbob = OPERATOR:" + BOB + "\n");
        Properties sys = new Properties();
        sys.setProperty("lockwarden.admin.user.bob", "VIEWER:" + BOB);
        UserDirectory users = UserDirectory.load(settings(Map.of(UserDirectory.USERS_FILE, file.toString())), sys);

        assertEquals(2, users.size());
        assertEquals(
                Optional.of(new AdminUser("alice", Role.OPERATOR)),
                users.authenticate("alice", "alice-pw".toCharArray()));
        assertEquals(Optional.of(new AdminUser("bob", Role.VIEWER)), users.authenticate("bob", "bob-pw".toCharArray()));
        assertTrue(users.authenticate("alice", "bob-pw".toCharArray()).isEmpty());
        assertTrue(users.authenticate("carol", "alice-pw".toCharArray()).isEmpty());
        assertTrue(users.authenticate(null, new char[0]).isEmpty());
    }

    @Test
    void noUsersNamesTheSettingsToSet() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> UserDirectory.load(settings(Map.of()), new Properties()));
        assertTrue(e.getMessage().contains("lockwarden.admin.users"), e.getMessage());
        assertTrue(e.getMessage().contains("first run"), e.getMessage());
    }

    @Test
    void badLinesNameFileLineAndFixWithoutEchoingHashes() throws Exception {
        Path file = dir.resolve("users.properties");
        Files.writeString(file, "alice = OPERATOR:" + ALICE + "\nbob = ADMIN:" + BOB + "\n");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> UserDirectory.load(
                        settings(Map.of(UserDirectory.USERS_FILE, file.toString())), new Properties()));
        assertTrue(e.getMessage().contains("line 2") && e.getMessage().contains("VIEWER or OPERATOR"), e.getMessage());
        assertFalse(e.getMessage().contains(BOB));

        Files.writeString(file, "carol = VIEWER:secret\n");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> UserDirectory.load(
                        settings(Map.of(UserDirectory.USERS_FILE, file.toString())), new Properties()));
        assertTrue(e.getMessage().contains("line 1") && e.getMessage().contains("hash-password"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"));

        e = assertThrows(
                IllegalArgumentException.class,
                () -> UserDirectory.load(
                        settings(Map.of(
                                UserDirectory.USERS_FILE, dir.resolve("missing").toString())),
                        new Properties()));
        assertTrue(e.getMessage().contains("lockwarden.admin.users"), e.getMessage());
    }

    private static Settings settings(Map<String, String> props) {
        return new Settings(props::get, Map.of());
    }
}
