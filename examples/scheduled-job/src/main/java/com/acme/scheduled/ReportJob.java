package com.acme.scheduled;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The nightly report, every two seconds here so the example shows several periods quickly. It knows nothing of
 * locks: every JVM running it fires at the same instants (the cron is aligned on the clock), and the agent's rule
 * lets only one of them run each period.
 */
@Component
public class ReportJob {
    private final Path log = Path.of(System.getProperty("report.log", "report-runs.log"));

    @Scheduled(cron = "${report.cron:*/2 * * * * *}")
    public void run() throws IOException {
        long period = Instant.now().getEpochSecond() / 2;
        String line = "RUN period=" + period + " pid="
                + ManagementFactory.getRuntimeMXBean().getPid() + "\n";
        // one small append per run: atomic on a local file system, so two JVMs never interleave a line
        Files.writeString(log, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        System.out.print(line);
    }
}
