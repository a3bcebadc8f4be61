package io.dsched.actuate;

import org.jspecify.annotations.Nullable;

/**
 * Decides what the {@code dsched} endpoint shows of each value in a payload or in a job's
 * parameters, and what the audit log keeps of parameters; modelled on Spring Boot's
 * {@code SanitizingFunction}.
 *
 * <p>The endpoint walks the JSON of each payload and parameters it shows, objects nested in arrays
 * too, and asks for every key. Beans of this type replace the default, one
 * that masks keys that look secret, and are asked in their order: the first that returns another
 * value than the one it was given decides, and what it returned is not walked further. Sanitizing
 * comes on top of {@code dsched.management.show-values}: a caller who may not see values sees every
 * payload and parameters masked whole.
 */
@FunctionalInterface
public interface ValueSanitizer {

    /**
     * Returns the value to show for a key.
     * @param data the key and its value
     * @return {@code data.value()} to leave it, {@link SanitizableValue#SANITIZED_VALUE} to mask it,
     *     or any other value that Jackson can write
     */
    @Nullable
    Object apply(SanitizableValue data);
}
