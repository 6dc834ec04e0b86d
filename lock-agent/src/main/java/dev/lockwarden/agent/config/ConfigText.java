package dev.lockwarden.agent.config;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a config file's lines exactly as {@code Files.readAllLines(path, UTF_8)} does — strict UTF-8 (a malformed
 * byte is an {@link IOException}), lines ended by {@code \n}, {@code \r} or {@code \r\n} — through a plain
 * {@link FileInputStream}: it runs in {@code premain}, where the channel, reader and decoder classes behind
 * {@code Files.readAllLines} (two dozen classes not in the JDK's class data archive) are start-up time.
 */
final class ConfigText {
    private ConfigText() {}

    /** The file's lines; a file larger than {@link ConfigLimits#MAX_FILE_BYTES} is never read whole. */
    static List<String> lines(Path path) throws IOException {
        byte[] bytes;
        ConfigLimits.fileSize(path.toString(), path.toFile().length());
        try (InputStream in = new FileInputStream(path.toFile())) {
            bytes = in.readNBytes(ConfigLimits.MAX_FILE_BYTES + 1); // a pipe or device has no length: bound the read
        }
        ConfigLimits.fileSize(path.toString(), bytes.length);
        return split(StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(bytes))
                .toString());
    }

    /** Splits as {@code BufferedReader.readLine} does: no empty last line after a final line break. */
    static List<String> split(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < n) {
            lines.add(text.substring(start));
        }
        return lines;
    }
}
