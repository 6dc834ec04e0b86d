package com.acme.legacy;

/** Parameter types for the toString() check of bare {@code {0}} keys. */
public class KeyTypes {
    public void take(Object o) {}

    public void take(int[] a) {}

    public void take(CharSequence s) {}
}
