package dev.lockwarden.admin.security;

import dev.lockwarden.config.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * The dashboard's users: name, role and a salted PBKDF2 hash each. Read from a users file
 * ({@value #USERS_FILE}, lines {@code name = ROLE:hash}) and from system properties
 * {@code lockwarden.admin.user.<name>=ROLE:hash} (these win). Passwords never leave
 * {@link #authenticate}.
 */
public final class UserDirectory {
    /** Setting naming the users file. */
    public static final String USERS_FILE = "lockwarden.admin.users";
    /** Prefix of per-user system properties. */
    public static final String USER_PROPERTY_PREFIX = "lockwarden.admin.user.";

    private static final String FIX =
            "create hashes with `java -jar lockwarden-admin.jar hash-password` (see admin-ui/README.md)";

    private final Map<String, Entry> users;
    private final String decoyHash;
    /** Users who logged in with a generated password and must set their own. */
    private final Set<String> mustChange = ConcurrentHashMap.newKeySet();

    private volatile BiConsumer<String, String> persist = (name, hash) -> {};

    private UserDirectory(Map<String, Entry> users) {
        if (users.isEmpty()) {
            throw new IllegalArgumentException("no dashboard users configured: set " + USERS_FILE
                    + " (or LOCKWARDEN_ADMIN_USERS) to a users file with lines `name = VIEWER|OPERATOR:<hash>`, or -D"
                    + USER_PROPERTY_PREFIX
                    + "<name>=ROLE:<hash>, or set neither to have an operator created at the first run; "
                    + FIX);
        }
        this.users = new ConcurrentHashMap<>(users);
        // an unknown name is checked against the costliest hash: answering sooner would tell that the name is unknown
        this.decoyHash = users.values().stream()
                .map(Entry::hash)
                .max(java.util.Comparator.comparingInt(PasswordHasher::iterations))
                .orElseThrow();
    }

    /** Users from the {@value #USERS_FILE} file and the {@code lockwarden.admin.user.*} properties. */
    public static UserDirectory load(Settings settings, Properties systemProperties) {
        return new UserDirectory(read(settings, systemProperties));
    }

    /**
     * Like {@link #load}, but empty when no users file and no user property is set at all (the
     * first run, see {@link FirstRunUsers}). A users file that is set but holds no user is an error.
     */
    public static Optional<UserDirectory> configured(Settings settings, Properties systemProperties) {
        boolean any = settings.raw(USERS_FILE).isPresent()
                || systemProperties.stringPropertyNames().stream().anyMatch(k -> k.startsWith(USER_PROPERTY_PREFIX));
        return any ? Optional.of(load(settings, systemProperties)) : Optional.empty();
    }

    /** Users of one users file. */
    public static UserDirectory load(Path file) {
        Map<String, Entry> users = new LinkedHashMap<>();
        readFile(file, "users file " + file, users);
        return new UserDirectory(users);
    }

    private static Map<String, Entry> read(Settings settings, Properties systemProperties) {
        Map<String, Entry> users = new LinkedHashMap<>();
        Optional<Settings.Source> file = settings.raw(USERS_FILE);
        if (file.isPresent()) {
            readFile(Path.of(file.get().value()), file.get().where(), users);
        }
        for (String key : systemProperties.stringPropertyNames()) {
            if (key.startsWith(USER_PROPERTY_PREFIX)) {
                String name = key.substring(USER_PROPERTY_PREFIX.length());
                users.put(name, parse(name, systemProperties.getProperty(key), "system property " + key));
            }
        }
        return users;
    }

    /** Users given directly (tests, embedding). */
    public static UserDirectory of(Map<String, String> roleAndHashByName) {
        Map<String, Entry> users = new LinkedHashMap<>();
        roleAndHashByName.forEach((name, value) -> users.put(name, parse(name, value, "user '" + name + "'")));
        return new UserDirectory(users);
    }

    /** The user if the name is known and the password matches; the check costs the same either way. */
    public Optional<AdminUser> authenticate(String name, char[] password) {
        Entry e = name == null ? null : users.get(name);
        boolean matches = PasswordHasher.matches(password, e != null ? e.hash() : decoyHash);
        return e != null && matches ? Optional.of(new AdminUser(name, e.role())) : Optional.empty();
    }

    /**
     * Marks {@code name} as holding a generated password: at login they are asked for their own,
     * which {@code persist} stores (name, new hash) before it counts.
     */
    UserDirectory mustChangePassword(String name, BiConsumer<String, String> persist) {
        mustChange.add(name);
        this.persist = persist;
        return this;
    }

    /** Whether {@code name} must set a new password before using the dashboard. */
    public boolean mustChangePassword(String name) {
        return name != null && mustChange.contains(name);
    }

    /** Replaces a user's hash (stored first where there is a store); the role stays. */
    void changePassword(String name, String hash) {
        Entry old = users.get(name);
        if (old == null) {
            throw new IllegalArgumentException("no user '" + name + "'");
        }
        persist.accept(name, hash);
        users.put(name, new Entry(old.role(), hash));
        mustChange.remove(name);
    }

    /** Whether {@code name} is a configured user. */
    public boolean knows(String name) {
        return name != null && users.containsKey(name);
    }

    /** Number of configured users. */
    public int size() {
        return users.size();
    }

    private static void readFile(Path path, String where, Map<String, Entry> users) {
        UsersFileCheck.check(path, where);
        List<String> lines;
        try {
            lines = Files.readAllLines(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the users file " + path.toAbsolutePath() + " (from " + where
                    + "): " + e + "; point " + USERS_FILE + " at a readable file");
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String at = "users file " + path + " line " + (i + 1);
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(at + ": expected `name = ROLE:hash`");
            }
            String name = line.substring(0, eq).strip();
            users.put(name, parse(name, line.substring(eq + 1).strip(), at));
        }
    }

    private static Entry parse(String name, String value, String at) {
        if (name.isBlank() || !name.matches("[A-Za-z0-9._@-]+")) {
            throw new IllegalArgumentException(at + ": user name '" + name + "' must be letters, digits, . _ @ -");
        }
        int colon = value == null ? -1 : value.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(at + ": expected ROLE:hash with ROLE VIEWER or OPERATOR");
        }
        Role role;
        try {
            role = Role.valueOf(value.substring(0, colon).strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    at + ": role '" + value.substring(0, colon).strip() + "' is unknown: use VIEWER or OPERATOR");
        }
        String hash = value.substring(colon + 1).strip();
        try {
            PasswordHasher.validate(hash);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": " + e.getMessage());
        }
        return new Entry(role, hash);
    }

    private record Entry(Role role, String hash) {}
}
