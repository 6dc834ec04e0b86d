package dev.lockwarden.admin.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Refuses a users file that someone other than the dashboard's own user could change: who can
 * write it can make themselves an operator. A symlink is refused too (its target can be swapped).
 */
final class UsersFileCheck {
    private UsersFileCheck() {}

    static void check(Path file, String where) {
        Path abs = file.toAbsolutePath();
        if (Files.isSymbolicLink(abs)) {
            throw new IllegalArgumentException("the users file " + abs + " (from " + where
                    + ") is a symbolic link: point " + UserDirectory.USERS_FILE
                    + " at the real file, or replace the link with a copy (chmod 600)");
        }
        if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            return; // reading it says that it is missing
        }
        PosixFileAttributes attributes;
        UserPrincipal me;
        try {
            attributes = Files.readAttributes(abs, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            me = abs.getFileSystem()
                    .getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (UnsupportedOperationException e) {
            return; // no POSIX owner and modes to check on this file system
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the owner and mode of the users file " + abs + " (from "
                    + where + "): " + e.getMessage());
        }
        if (!attributes.owner().equals(me)) {
            throw new IllegalArgumentException("the users file " + abs + " (from " + where + ") belongs to "
                    + attributes.owner().getName() + ", not to " + me.getName() + " who runs the dashboard: `chown "
                    + me.getName() + " " + abs + "`, or run the dashboard as its owner");
        }
        Set<PosixFilePermission> modes = attributes.permissions();
        if (modes.contains(PosixFilePermission.GROUP_WRITE) || modes.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IllegalArgumentException("the users file " + abs + " (from " + where
                    + ") may be changed by its group " + "or by anyone: `chmod 600 " + abs + "`");
        }
    }
}
