package dev.lockwarden.examples.demo;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * How the launcher runs the dashboard (admin-ui) in its own JVM, logged in with an operator whose
 * random password exists only for this run: its salted hash goes into a users file (mode 600) in
 * the demo's temp dir, in the dashboard's documented format
 * {@code name = ROLE:pbkdf2-sha256$<iterations>$<salt>$<hash>}.
 */
final class Dashboard {
    static final String USER = "operator";
    private static final int ITERATIONS = 600_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final char[] password;
    private final Path usersFile;

    private Dashboard(char[] password, Path usersFile) {
        this.password = password;
        this.usersFile = usersFile;
    }

    /** A new operator login, written (hashed) to {@code dir/users.properties}. */
    static Dashboard withNewOperator(Path dir) throws IOException {
        byte[] secret = new byte[15];
        RANDOM.nextBytes(secret);
        char[] password =
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret).toCharArray();
        Path file = dir.resolve("users.properties");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, "# users of this ./demo run only\n" + USER + " = OPERATOR:" + hash(password) + "\n");
        return new Dashboard(password, file);
    }

    String password() {
        return new String(password);
    }

    /**
     * The command starting the dashboard from {@code targetDir} (admin-ui/target): its runnable
     * {@code lockwarden-admin.jar} if built, else the module jar with {@code lib/}.
     */
    List<String> command(String java, Path targetDir, String redisUri, int port, Path tmp) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx384m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + tmp,
                "-Dvaadin.devmode.usageStatistics.enabled=false",
                "-Dlockwarden.redis=" + redisUri,
                "-Dlockwarden.admin.port=" + port,
                "-Dlockwarden.admin.users=" + usersFile,
                "-Dlockwarden.application=lockwarden-admin"));
        Path runnable = targetDir.resolve("lockwarden-admin.jar");
        if (Files.isRegularFile(runnable)) {
            cmd.addAll(List.of("-jar", runnable.toString()));
            return cmd;
        }
        Optional<Path> moduleJar;
        try (Stream<Path> files = Files.list(targetDir)) {
            moduleJar = files.filter(p -> p.getFileName().toString().matches("admin-ui-.*\\.jar")
                            && !p.toString().endsWith("-tests.jar"))
                    .findFirst();
        }
        if (moduleJar.isEmpty() || !Files.isDirectory(targetDir.resolve("lib"))) {
            throw new IllegalStateException("the dashboard is not built in " + targetDir
                    + ": run `mvn -B -q -pl admin-ui,examples -am package -DskipTests` (./demo does)");
        }
        cmd.addAll(List.of(
                "-cp",
                moduleJar.get() + File.pathSeparator + targetDir.resolve("lib") + "/*",
                "dev.lockwarden.admin.AdminServer"));
        return cmd;
    }

    /** Whether the admin-ui build output is in {@code targetDir}. */
    static boolean isBuilt(Path targetDir) {
        return Files.isRegularFile(targetDir.resolve("lockwarden-admin.jar"))
                || Files.isDirectory(targetDir.resolve("lib"));
    }

    private static String hash(char[] password) {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        try {
            byte[] key = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(new PBEKeySpec(password, salt, ITERATIONS, 256))
                    .getEncoded();
            Base64.Encoder b64 = Base64.getEncoder();
            return "pbkdf2-sha256$" + ITERATIONS + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is missing from this JDK", e);
        }
    }
}
