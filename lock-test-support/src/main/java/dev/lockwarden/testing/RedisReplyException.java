package dev.lockwarden.testing;

/** An error reply ({@code -ERR ...}, {@code -NOAUTH ...}) returned by Redis to a raw {@link RedisNode#command}. */
public final class RedisReplyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param reply the error line without the leading {@code -} */
    public RedisReplyException(String reply) {
        super(reply);
    }

    /** {@return the error code, i.e. the first word of the reply ({@code ERR}, {@code NOAUTH}, {@code LOADING}...)} */
    public String code() {
        String msg = getMessage();
        int space = msg.indexOf(' ');
        return space < 0 ? msg : msg.substring(0, space);
    }
}
