package dev.lockwarden.admin.service;

import dev.lockwarden.ForceReleaseResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;

/**
 * The dashboard's own copy of every force-release it made ({@code --audit-file FILE}): one JSON object per line,
 * appended and forced to disk before the operator sees the result, so a flushed or lost Redis loses no audit
 * record. Created with mode 600. Fields: {@code at}, {@code operator}, {@code name}, {@code released},
 * {@code releasedOn}, {@code oldFence}, {@code newFence}, {@code auditId}, {@code nodes} (each node's address,
 * state, audit id and problem).
 */
public final class AuditFile {
    private final Path file;

    /** @param file the JSON-lines file, created if missing */
    public AuditFile(Path file) {
        this.file = file.toAbsolutePath();
        if (!Files.exists(this.file)) {
            try {
                Files.createFile(
                        this.file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                touch();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the audit file " + this.file + ": " + e.getMessage(), e);
            }
        }
    }

    private void touch() {
        try {
            Files.writeString(this.file, "", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the audit file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file. */
    public Path path() {
        return file;
    }

    /** Appends one line for {@code r} and forces it to disk. */
    public synchronized void append(ForceReleaseResult r, String operator, Instant at) {
        StringBuilder s = new StringBuilder("{");
        field(s, "at", at.toString()).append(',');
        field(s, "operator", operator).append(',');
        field(s, "name", r.name()).append(',');
        s.append("\"released\":").append(r.released()).append(',');
        s.append("\"releasedOn\":").append(r.releasedOn()).append(',');
        s.append("\"oldFence\":").append(r.oldFence()).append(',');
        s.append("\"newFence\":").append(r.newFence()).append(',');
        field(s, "auditId", r.auditId()).append(",\"nodes\":[");
        for (int i = 0; i < r.nodes().size(); i++) {
            ForceReleaseResult.OnNode n = r.nodes().get(i);
            s.append(i == 0 ? "{" : ",{");
            field(s, "node", n.node()).append(',');
            field(s, "state", n.state().name()).append(',');
            field(s, "auditId", n.auditId()).append(',');
            field(s, "problem", n.problem()).append('}');
        }
        s.append("]}\n");
        try (FileChannel c = FileChannel.open(file, Set.of(StandardOpenOption.WRITE, StandardOpenOption.APPEND))) {
            c.write(StandardCharsets.UTF_8.encode(s.toString()));
            c.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot append to the audit file " + file + " (the force-release itself"
                            + " is done and audited in Redis): " + e.getMessage(),
                    e);
        }
    }

    private static StringBuilder field(StringBuilder s, String name, String value) {
        s.append('"').append(name).append("\":");
        if (value == null) {
            return s.append("null");
        }
        s.append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"');
    }
}
