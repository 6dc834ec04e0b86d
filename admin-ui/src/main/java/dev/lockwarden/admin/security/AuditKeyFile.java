package dev.lockwarden.admin.security;

import dev.lockwarden.AuditSigner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The dashboard's audit key ({@link AuditSigner}): 32 random bytes, hex, in {@value #FILE_NAME} next to the users
 * file (or where {@code --audit-key} says), created at the first run with mode 600 like the first-run password
 * file. Only the dashboard holds it: applications cannot seal records, so what they write into the audit stream
 * shows as not from the dashboard. An existing key file that is a symlink, not owned by the user running the
 * dashboard, or readable or writable by its group or others makes the dashboard refuse to start.
 */
public final class AuditKeyFile {
    /** Name of the key file next to the users file. */
    public static final String FILE_NAME = "lockwarden-admin-audit.key";

    private AuditKeyFile() {}

    /**
     * The signer with the key in {@code file}, created there first if missing; without a file (run from classes,
     * no users file) a key for this process only, which a restart cannot check again.
     *
     * @param file the key file, if there is a place for one
     * @param out  where the start-up line goes
     */
    public static AuditSigner load(Optional<Path> file, PrintStream out) {
        if (file.isEmpty()) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            out.println("Audit key: in memory only (pass --audit-key FILE to keep it): records sealed now cannot be"
                    + " checked after a restart");
            return AuditSigner.of(key);
        }
        Path f = file.get().toAbsolutePath();
        if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
            create(f);
            out.println("Audit key: created " + f + " (mode 600); keep it with the users file and back it up:"
                    + " without it the audit chain cannot be checked");
        } else {
            check(f);
            out.println("Audit key: " + f);
        }
        try {
            String hex = Files.readString(f, StandardCharsets.US_ASCII).strip();
            return AuditSigner.of(HexFormat.of().parseHex(hex));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit key " + f + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the audit key " + f + " is not " + AuditSigner.MIN_KEY_BYTES
                    + " or more bytes in hex (" + e.getMessage() + "): restore it from the backup, or move it away to"
                    + " start a new chain");
        }
    }

    /** Where the key goes: {@code explicit}, else next to the users file, else in {@code firstRunDir}. */
    public static Optional<Path> place(Optional<Path> explicit, Optional<Path> usersFile, Optional<Path> firstRunDir) {
        return explicit.or(() -> usersFile.map(u -> u.toAbsolutePath().resolveSibling(FILE_NAME)))
                .or(() -> firstRunDir.map(d -> d.resolve(FILE_NAME)));
    }

    private static void create(Path f) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            try {
                Files.createFile(f, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                throw new IllegalStateException("the file system of " + f.getParent() + " has no POSIX permissions,"
                        + " so the audit key could not be made private: pass --audit-key FILE on a POSIX file system");
            }
            Files.writeString(f, HexFormat.of().formatHex(key) + "\n", StandardCharsets.US_ASCII);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalStateException(f + " appeared while the dashboard was creating it: start again");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create the audit key " + f + " (" + e.getMessage()
                            + "): make its directory writable, or pass --audit-key FILE",
                    e);
        }
    }

    /** Refuses a key file another user could read or change, or a symlink. */
    static void check(Path f) {
        if (Files.isSymbolicLink(f)) {
            throw new IllegalArgumentException("the audit key " + f + " is a symbolic link: replace the link with the"
                    + " file itself (chmod 600)");
        }
        PosixFileAttributes a;
        String me = System.getProperty("user.name");
        try {
            a = Files.readAttributes(f, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException e) {
            return; // no POSIX owner and modes on this file system
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the owner and mode of the audit key " + f + ": " + e.getMessage());
        }
        if (!a.owner().getName().equals(me)) {
            throw new IllegalArgumentException("the audit key " + f + " belongs to "
                    + a.owner().getName() + ", not to " + me + " who runs the dashboard: `chown " + me + " " + f + "`");
        }
        for (PosixFilePermission p : a.permissions()) {
            if (p != PosixFilePermission.OWNER_READ && p != PosixFilePermission.OWNER_WRITE) {
                throw new IllegalArgumentException("the audit key " + f + " may be read or changed by others"
                        + " (mode " + PosixFilePermissions.toString(a.permissions()) + "): `chmod 600 " + f + "`");
            }
        }
    }
}
