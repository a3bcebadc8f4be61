package io.dsched.sample.order;

/**
 * Thrown when the payment partner does not answer a sync.
 */
public class PartnerUnavailableException extends RuntimeException {

    /**
     * Creates the exception.
     * @param message what went wrong
     */
    public PartnerUnavailableException(String message) {
        super(message);
    }
}
