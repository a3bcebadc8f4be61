package io.dsched.internal.actuate;

import io.dsched.actuate.ValueSanitizer;
import io.dsched.internal.management.Change;
import java.util.List;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * Whether the endpoint shows values (payloads, parameters, captured log lines and stack traces) and
 * how it sanitizes those it shows, as Spring Boot's {@code env} endpoint does with
 * {@code show-values} and its sanitizing functions. Whatever is shown, keys that look secret are
 * masked, in the audit log too.
 */
public final class ValueMasking {

    private final Show show;

    private final JsonSanitizer sanitizer;

    /**
     * Creates the masking.
     * @param show when values are shown: {@link Show#WHEN_AUTHORIZED} means to a caller with the
     *     operator role or above, and never without Spring Security
     * @param sanitizers what is shown of each key of a payload or parameters, asked in this order
     */
    public ValueMasking(Show show, List<ValueSanitizer> sanitizers) {
        this.show = show;
        this.sanitizer = new JsonSanitizer(sanitizers);
    }

    /** What a caller sees, given whether it is authorized to see values. */
    ShownValues forCaller(boolean authorized) {
        return new ShownValues(this.show.isShown(authorized), this.sanitizer);
    }

    /** A write's change with its parameters sanitized, for its audit entry and its answer. */
    Change sanitized(Change change) {
        ShownValues audited = new ShownValues(true, this.sanitizer);
        return new Change(change.target(), audited.change(change.before()), audited.change(change.after()));
    }
}
