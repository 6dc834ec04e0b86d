package dev.lockwarden.admin.ui;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The formatted messages logged to one logger (and its children) while open. Our code logs through
 * {@code System.Logger}, which writes to {@code java.util.logging} when no other backend is installed.
 */
final class CapturedLog extends Handler implements AutoCloseable {
    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();

    CapturedLog(String loggerName) {
        this.logger = Logger.getLogger(loggerName);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void publish(LogRecord r) {
        lines.add(formatter.formatMessage(r));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
