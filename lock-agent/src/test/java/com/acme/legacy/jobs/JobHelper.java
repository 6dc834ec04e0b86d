package com.acme.legacy.jobs;

/** In the jobs package but not a *Job and without run*: must keep its exact class-file bytes. */
public class JobHelper {
    public String run() {
        return "helper";
    }
}
