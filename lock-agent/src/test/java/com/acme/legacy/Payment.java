package com.acme.legacy;

/** A legacy value object without toString(): {@code {0}} of it would be a different key on every call. */
public class Payment {
    private final String id;

    public Payment(String id) {
        this.id = id;
    }

    public String getId() {
        return id;
    }
}
