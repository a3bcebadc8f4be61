package io.dsched.notify;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a webhook request: {@code sha256=} and the hex HMAC-SHA256, keyed with the
 * shared secret, of the {@value #TIMESTAMP_HEADER} value, a dot and the exact bytes
 * of the body. Signing the timestamp lets a receiver refuse a request replayed later.
 */
public final class WebhookSignature {

    /** Header of the signature: {@code sha256=} and a hex HMAC-SHA256. */
    public static final String SIGNATURE_HEADER = "X-Dsched-Signature";

    /** Header of the time of the request, in epoch seconds, which the signature covers. */
    public static final String TIMESTAMP_HEADER = "X-Dsched-Timestamp";

    private static final String ALGORITHM = "HmacSHA256";

    private WebhookSignature() {}

    /**
     * Signs a request.
     * @param secret the shared secret
     * @param timestamp the value of {@value #TIMESTAMP_HEADER}
     * @param body the exact bytes of the body
     * @return the value of {@value #SIGNATURE_HEADER}
     */
    public static String sign(String secret, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ALGORITHM + " is not available", ex);
        }
    }

    /**
     * Checks a request's signature, in time that does not depend on where it differs.
     * @param secret the shared secret
     * @param timestamp the value of {@value #TIMESTAMP_HEADER}
     * @param body the exact bytes of the body
     * @param signature the value of {@value #SIGNATURE_HEADER}, or {@code null}
     * @return whether the request was signed with the secret
     */
    public static boolean verify(String secret, String timestamp, byte[] body, String signature) {
        return signature != null
                && MessageDigest.isEqual(
                        sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII),
                        signature.getBytes(StandardCharsets.US_ASCII));
    }
}
