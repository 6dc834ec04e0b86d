package dev.lockwarden.admin.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the Maven version recorded in the jar. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in =
                Version.class.getResourceAsStream("/META-INF/maven/dev.lockwarden/admin-ui/pom.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"lockwarden-admin " + p.getProperty("version", "(development build)")};
    }
}
