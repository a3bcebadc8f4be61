package io.dsched.internal.actuate;

import io.dsched.actuate.SanitizableValue;
import io.dsched.actuate.ValueSanitizer;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link ValueSanitizer}: masks the value of every key that contains, ignoring case,
 * one of {@link #WORDS} ({@code apiKey}, {@code api_key}, {@code client-secret}, {@code dbPassword},
 * {@code credentials}, {@code accessToken}), and of every key that one of the additional patterns
 * matches whole, ignoring case. A key of a word that merely contains one ({@code keyboard}) is
 * masked too: masking too much is the safer mistake.
 */
public final class SecretKeySanitizer implements ValueSanitizer {

    /** The words that make a key look secret. */
    public static final List<String> WORDS = List.of("password", "secret", "token", "key", "credential");

    private final List<Pattern> additional;

    /**
     * Creates the sanitizer.
     * @param additionalKeys further keys to mask, as regular expressions that match the whole key,
     *     ignoring case ({@code pin}, {@code .*iban.*})
     * @throws IllegalArgumentException naming a pattern that is not a regular expression
     */
    public SecretKeySanitizer(List<String> additionalKeys) {
        this.additional =
                additionalKeys.stream().map(SecretKeySanitizer::compile).toList();
    }

    @Override
    public @Nullable Object apply(SanitizableValue data) {
        return isSecret(data) ? SanitizableValue.SANITIZED_VALUE : data.value();
    }

    private boolean isSecret(SanitizableValue data) {
        String key = data.lowerCaseKey();
        return WORDS.stream().anyMatch(key::contains)
                || this.additional.stream()
                        .anyMatch((pattern) -> pattern.matcher(data.key()).matches());
    }

    private static Pattern compile(String key) {
        try {
            return Pattern.compile(key, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        } catch (PatternSyntaxException ex) {
            throw new IllegalArgumentException(
                    "Invalid key '" + key + "' in dsched.management.additional-keys-to-sanitize: "
                            + ex.getDescription(),
                    ex);
        }
    }
}
