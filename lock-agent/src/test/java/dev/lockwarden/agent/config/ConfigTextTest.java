package dev.lockwarden.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ConfigText} reads every file as {@code Files.readAllLines(path, UTF_8)} does. */
class ConfigTextTest {
    @TempDir
    Path dir;

    @Test
    void sameLinesAsFilesReadAllLines() throws IOException {
        List<String> samples = List.of(
                "",
                "a",
                "a\n",
                "a\nb",
                "a\r\nb\r\n",
                "a\rb\r",
                "\n\n",
                "\r\n\r\n",
                "x\r\r\ny",
                "redis = redis://127.0.0.1:6379\ncom.acme.Pay#charge(..) key=\"pay:{0}\"\n",
                "ünïcödé → ✓\n€",
                "trailing spaces   \n\ttab\n");
        for (String s : samples) {
            assertSame(s);
        }
        Random random = new Random(42);
        String alphabet = "ab \t=\"{}#\n\r\r\n€ü";
        for (int n = 0; n < 2_000; n++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(40);
            for (int i = 0; i < len; i++) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            assertSame(sb.toString());
        }
    }

    @Test
    void malformedUtf8IsAnErrorAsWithReadAllLines() throws IOException {
        Path f = dir.resolve("bad.conf");
        Files.write(f, new byte[] {'a', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
        assertThrows(MalformedInputException.class, () -> Files.readAllLines(f, StandardCharsets.UTF_8));
        assertThrows(MalformedInputException.class, () -> ConfigText.lines(f));
    }

    private void assertSame(String content) throws IOException {
        Path f = dir.resolve("c.conf");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        assertEquals(
                Files.readAllLines(f, StandardCharsets.UTF_8),
                ConfigText.lines(f),
                () -> "for " + content.replace("\r", "\\r").replace("\n", "\\n"));
    }
}
