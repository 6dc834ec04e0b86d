package dev.lockwarden.admin.security;

/** What a dashboard user may do. */
public enum Role {
    /** Sees locks, holders and events. */
    VIEWER,
    /** Everything a viewer can, plus force-release. */
    OPERATOR;

    /** Whether this role may force-release locks. */
    public boolean mayForceRelease() {
        return this == OPERATOR;
    }
}
