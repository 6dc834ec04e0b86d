package dev.lockwarden.examples.jakarta;

/** What a caller of {@link Payments#charge} gets: the card confirmation, and whether it was charged before. */
public record Receipt(String paymentId, String confirmation, boolean replayed) {}
