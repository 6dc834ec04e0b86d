package dev.lockwarden.lifecycle;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Captures System.Logger output (its default java.util.logging backend) of the dev.lockwarden loggers. */
final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("dev.lockwarden");
    private final Level before;
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    LogCapture() {
        before = logger.getLevel();
        logger.setLevel(Level.ALL);
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    List<String> warnings(String loggerName) {
        return records.stream()
                .filter(r -> r.getLevel() == Level.WARNING && r.getLoggerName().equals(loggerName))
                .map(LogRecord::getMessage)
                .toList();
    }

    @Override
    public void publish(LogRecord r) {
        records.add(r);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(before);
    }
}
