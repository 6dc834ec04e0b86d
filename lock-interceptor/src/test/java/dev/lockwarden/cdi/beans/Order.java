package dev.lockwarden.cdi.beans;

/** A parameter whose property is used in a key template ({order.id}). */
public record Order(String id) {}
