package com.acme.scheduled;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Starts the Spring context with scheduling on; runs for {@code args[0]} seconds (default: until stopped). */
@Configuration
@EnableScheduling
@ComponentScan
public class ReportApp {
    public static void main(String[] args) throws InterruptedException {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(ReportApp.class)) {
            System.out.println("STARTED");
            Thread.sleep(args.length > 0 ? Long.parseLong(args[0]) * 1000 : Long.MAX_VALUE);
        }
    }
}
