package dev.lockwarden.admin.security;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The first start with no users configured. There is never a fixed default password: an operator
 * with a random password is created, the password is printed once, and only its hash is kept. Run
 * from the jar, the hash goes into {@value #FILE_NAME} next to the jar (created with mode 600) and
 * later starts read that file; run from classes (tests, IDE), it is kept in memory only.
 */
public final class FirstRunUsers {
    /** Name of the generated operator. */
    public static final String USER = "operator";
    /** Users file created next to the jar. */
    public static final String FILE_NAME = "lockwarden-admin-users.properties";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String LINE = "=".repeat(78);

    private FirstRunUsers() {
    }

    /**
     * @param dir where to keep the users file (empty = in memory only)
     * @param out where the one-time password is printed
     */
    public static UserDirectory create(Optional<Path> dir, PrintStream out) {
        if (dir.isPresent() && Files.exists(dir.get().resolve(FILE_NAME))) {
            Path file = dir.get().resolve(FILE_NAME);
            out.println("Dashboard users: " + file.toAbsolutePath() + " (created at the first run; pass --users FILE for another file)");
            return UserDirectory.load(file);
        }
        char[] password = password();
        String hash = PasswordHasher.hash(password);
        String where;
        if (dir.isPresent()) {
            Path file = dir.get().resolve(FILE_NAME).toAbsolutePath();
            write(file, hash);
            where = "Only its hash is kept, in " + file + " (mode 600); later starts use that file.";
        } else {
            where = "Only its hash is kept, in memory: the next start makes a new one. Pass --users FILE to keep users.";
        }
        out.println(LINE);
        out.println("First run: no dashboard users are configured, so an operator was created.");
        out.println("  user:     " + USER);
        out.println("  password: " + new String(password));
        out.println("The password is shown only this once. " + where);
        out.println("More users: `java -jar lockwarden-admin.jar hash-password`, then lines `name = OPERATOR|VIEWER:<hash>`.");
        out.println(LINE);
        java.util.Arrays.fill(password, '\0');
        return UserDirectory.of(Map.of(USER, Role.OPERATOR + ":" + hash));
    }

    /** The directory of the jar this class was loaded from, if it was loaded from a jar. */
    public static Optional<Path> jarDirectory() {
        try {
            var source = FirstRunUsers.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return Optional.empty();
            }
            Path p = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(p) && p.toString().endsWith(".jar") ? Optional.of(p.toAbsolutePath().getParent()) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** 20 random bytes, URL-safe Base64: 27 characters, 160 bits. */
    private static char[] password() {
        byte[] b = new byte[20];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b).toCharArray();
    }

    private static void write(Path file, String hash) {
        String text = "# Dashboard users (name = OPERATOR|VIEWER:<hash>), created at the first run; hashes from\n"
                + "# `java -jar lockwarden-admin.jar hash-password`. Keep this file private (mode 600).\n"
                + USER + " = " + Role.OPERATOR + ":" + hash + "\n";
        try {
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException(file + " appeared while the dashboard was creating it: start again");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the users file " + file + " (" + e.getMessage()
                    + "): make the jar's directory writable, or pass --users FILE", e);
        }
    }
}
