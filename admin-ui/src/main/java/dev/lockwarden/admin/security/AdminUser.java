package dev.lockwarden.admin.security;

import java.util.Objects;

/**
 * A logged-in dashboard user. Holds no credentials.
 *
 * @param name the login name, written into audit records
 * @param role what the user may do
 */
public record AdminUser(String name, Role role) {
    public AdminUser {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("user name is blank");
        }
        Objects.requireNonNull(role, "role");
    }
}
