package dev.lockwarden.testing;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Minimal RESP2 client: one command per connection, no dependency on Jedis. */
final class Resp {

    private Resp() {}

    /**
     * Sends one command (after {@code AUTH password} when a password is given) and returns the reply.
     * Arrays are flattened into newline-separated elements; a nil reply is {@code null}.
     *
     * @throws RedisReplyException on an error reply
     * @throws UncheckedIOException on connection failure or timeout (the cause tells which)
     */
    static String command(String host, int port, String password, Duration timeout, String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("no command given");
        }
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (password != null) {
                write(out, "AUTH", password);
                out.flush();
                render(read(in), true);
            }
            write(out, args);
            out.flush();
            return render(read(in), true);
        } catch (IOException e) {
            throw new UncheckedIOException(host + ":" + port + " " + args[0] + ": " + e, e);
        }
    }

    private static void write(OutputStream out, String... args) throws IOException {
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    /** Reads one reply: String, RedisReplyException (as a value), List, or null. */
    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by server");
        }
        String line = readLine(in);
        switch (type) {
            case '+':
            case ':':
                return line;
            case '-':
                return new RedisReplyException(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(len + 2); // payload + CRLF
                if (data.length < len + 2) {
                    throw new EOFException("truncated bulk reply");
                }
                return new String(data, 0, len, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read(in));
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type '" + (char) type + "' " + line);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed mid-reply");
            }
            if (prev == '\r' && b == '\n') {
                byte[] bytes = buf.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            buf.write(b);
            prev = b;
        }
    }

    private static String render(Object reply, boolean topLevel) {
        if (reply instanceof RedisReplyException) {
            if (topLevel) {
                throw (RedisReplyException) reply;
            }
            return "-" + ((RedisReplyException) reply).getMessage();
        }
        if (reply instanceof List) {
            List<String> parts = new ArrayList<>();
            for (Object item : (List<?>) reply) {
                parts.add(render(item, false));
            }
            return String.join("\n", parts);
        }
        if (reply == null) {
            return topLevel ? null : "";
        }
        return (String) reply;
    }
}
