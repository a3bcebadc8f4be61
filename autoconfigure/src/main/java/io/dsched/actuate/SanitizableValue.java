package io.dsched.actuate;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One key of a payload or of a job's parameters and its value, as a {@link ValueSanitizer} sees
 * it; modelled on Spring Boot's {@code SanitizableData}.
 *
 * @param key the key, as the JSON has it
 * @param value its value: a {@code String}, a {@code Number}, a {@code Boolean}, {@code null}, or
 *     a {@code Map} or {@code List} for a JSON object or array
 */
public record SanitizableValue(String key, @Nullable Object value) {

    /** What a masked value reads, as Spring Boot's endpoints show it. */
    public static final String SANITIZED_VALUE = "******";

    /**
     * Returns the key in lower case, for rules that ignore case.
     * @return the key in lower case
     */
    public String lowerCaseKey() {
        return this.key.toLowerCase(Locale.ROOT);
    }
}
