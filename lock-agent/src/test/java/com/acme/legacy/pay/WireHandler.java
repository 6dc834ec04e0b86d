package com.acme.legacy.pay;

/** Inherits handle() from {@link AbstractHandler}. */
public class WireHandler extends AbstractHandler {}
