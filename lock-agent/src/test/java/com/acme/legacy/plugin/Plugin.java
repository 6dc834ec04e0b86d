package com.acme.legacy.plugin;

/** Loaded by the legacy app through its own class loaders (like a JBoss module or an OSGi bundle); JDK types only. */
public class Plugin {
    public static int bodyRuns;

    public String pay(String id) {
        bodyRuns++;
        return "paid " + id;
    }
}
