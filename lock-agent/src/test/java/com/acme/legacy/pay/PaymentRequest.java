package com.acme.legacy.pay;

/** A request whose {@code id} names the lock. */
public record PaymentRequest(String id, long cents) {}
