package dev.lockwarden.examples.checkout;

/**
 * What the shopper's screen gets.
 *
 * @param placed  whether the order went through
 * @param orderId the order number when placed
 * @param message the text shown to the user
 */
public record CheckoutResult(boolean placed, String orderId, String message) {
    static CheckoutResult placed(String orderId) {
        return new CheckoutResult(true, orderId, "Order " + orderId + " placed. Thank you!");
    }

    static CheckoutResult busy(long waitedMillis) {
        return new CheckoutResult(
                false,
                null,
                "Your previous checkout is still being processed (we waited " + waitedMillis
                        + " ms). Nothing was charged twice: check \"My orders\" in a moment before trying again.");
    }
}
