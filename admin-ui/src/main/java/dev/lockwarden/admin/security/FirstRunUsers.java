package dev.lockwarden.admin.security;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first start with no users configured. There is never a fixed default password: an operator
 * with a random password is created, and the password goes into {@value #PASSWORD_FILE_NAME} (mode
 * 600) — not onto stdout, which journald and container logs keep — unless stdout is a terminal.
 * At the first login the operator sets their own password, and that file is deleted. Run from the
 * jar, the hash goes into {@value #FILE_NAME} next to the jar (mode 600) and later starts read that
 * file; run from classes (tests, IDE), the user is kept in memory and the password file is temporary.
 */
public final class FirstRunUsers {
    /** Name of the generated operator. */
    public static final String USER = "operator";
    /** Users file created next to the jar. */
    public static final String FILE_NAME = "lockwarden-admin-users.properties";
    /** The generated password, next to the users file until the operator sets their own. */
    public static final String PASSWORD_FILE_NAME = "lockwarden-admin-initial-password.txt";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String LINE = "=".repeat(78);
    private static final FileAttribute<?> PRIVATE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private FirstRunUsers() {}

    /**
     * @param dir      where to keep the users file (empty = in memory only)
     * @param out      where the start-up lines go
     * @param terminal whether {@code out} is a terminal (then the password is printed too)
     */
    public static UserDirectory create(Optional<Path> dir, PrintStream out, boolean terminal) {
        if (dir.isPresent() && Files.exists(dir.get().resolve(FILE_NAME))) {
            Path file = dir.get().resolve(FILE_NAME).toAbsolutePath();
            out.println("Dashboard users: " + file + " (created at the first run; pass --users FILE for another file)");
            UserDirectory users = UserDirectory.load(file);
            Path passwordFile = file.resolveSibling(PASSWORD_FILE_NAME);
            return Files.exists(passwordFile)
                    ? users.mustChangePassword(USER, store(Optional.of(file), passwordFile))
                    : users;
        }
        char[] password = password();
        String hash = PasswordHasher.hash(password);
        Optional<Path> usersFile = dir.map(d -> d.resolve(FILE_NAME).toAbsolutePath());
        usersFile.ifPresent(f -> createPrivate(
                f,
                "# Dashboard users (name = OPERATOR|VIEWER:<hash>), created at the first run; "
                        + "hashes from\n# `java -jar lockwarden-admin.jar hash-password`. Keep this file private (mode 600).\n"
                        + USER + " = " + Role.OPERATOR + ":" + hash + "\n"));
        Path passwordFile;
        try {
            passwordFile = usersFile
                    .map(f -> f.resolveSibling(PASSWORD_FILE_NAME))
                    .orElse(Files.createTempDirectory(
                                    "lockwarden-admin",
                                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                            .resolve(PASSWORD_FILE_NAME));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create a private directory for the first-run password: " + e.getMessage(), e);
        }
        try {
            Files.deleteIfExists(passwordFile); // left from a first run whose users file was deleted since
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace " + passwordFile + ": " + e.getMessage(), e);
        }
        createPrivate(passwordFile, new String(password) + "\n");
        out.println(LINE);
        out.println("First run: no dashboard users are configured, so an operator was created.");
        out.println("  user:     " + USER);
        out.println("  password: in " + passwordFile + " (mode 600)");
        if (terminal) {
            out.println("            " + new String(password));
        }
        out.println("At the first login you choose a new password, and that file is deleted. "
                + usersFile
                        .map(f -> "Users are kept in " + f + ".")
                        .orElse("Users are kept in memory: pass --users FILE to keep them."));
        out.println(
                "More users: `java -jar lockwarden-admin.jar hash-password`, then lines `name = OPERATOR|VIEWER:<hash>`.");
        out.println(LINE);
        java.util.Arrays.fill(password, '\0');
        return UserDirectory.of(Map.of(USER, Role.OPERATOR + ":" + hash))
                .mustChangePassword(USER, store(usersFile, passwordFile));
    }

    /** Writes a changed hash into the users file (if any), then deletes the password file. */
    private static java.util.function.BiConsumer<String, String> store(Optional<Path> usersFile, Path passwordFile) {
        return (name, hash) -> {
            try {
                if (usersFile.isPresent()) {
                    Path file = usersFile.get();
                    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                            .map(l -> !l.strip().startsWith("#")
                                            && l.contains("=")
                                            && l.substring(0, l.indexOf('='))
                                                    .strip()
                                                    .equals(name)
                                    ? name + " = "
                                            + l.substring(l.indexOf('=') + 1)
                                                    .strip()
                                                    .split(":", 2)[0] + ":" + hash
                                    : l)
                            .toList();
                    Path next = file.resolveSibling(FILE_NAME + ".new");
                    Files.deleteIfExists(next);
                    createPrivate(next, String.join("\n", lines) + "\n");
                    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                }
                Files.deleteIfExists(passwordFile);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot store the new password in " + usersFile.orElse(passwordFile) + ": " + e.getMessage(),
                        e);
            }
        };
    }

    /** The directory of the jar this class was loaded from, if it was loaded from a jar. */
    public static Optional<Path> jarDirectory() {
        try {
            var source = FirstRunUsers.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return Optional.empty();
            }
            Path p = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(p) && p.toString().endsWith(".jar")
                    ? Optional.of(p.toAbsolutePath().getParent())
                    : Optional.empty();
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

    /** A new file only its owner can read; refused where the file system cannot say so. */
    private static void createPrivate(Path file, String text) {
        try {
            try {
                Files.createFile(file, PRIVATE);
            } catch (UnsupportedOperationException notPosix) {
                throw new IllegalStateException(
                        "the file system of " + file.getParent() + " has no POSIX permissions, so "
                                + file.getFileName()
                                + " could not be made private: run the jar from a POSIX file system, or pass "
                                + "--users FILE with users made by `hash-password`");
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException(file + " appeared while the dashboard was creating it: start again");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create " + file + " (" + e.getMessage()
                            + "): make the jar's directory writable, or pass --users FILE",
                    e);
        }
    }
}
