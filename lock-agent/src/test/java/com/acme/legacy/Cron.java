package com.acme.legacy;

/** A job that finishes in milliseconds but must run once per period across servers (holdAtLeast). */
public class Cron {
    public void tick() {
        System.out.println("CRON tick ran");
    }
}
