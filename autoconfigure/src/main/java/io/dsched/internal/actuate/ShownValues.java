package io.dsched.internal.actuate;

import io.dsched.actuate.SanitizableValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one caller sees of values: payloads and parameters sanitized or masked whole, stack traces
 * and log lines shown or masked. A masked value is {@link SanitizableValue#SANITIZED_VALUE}, a
 * masked list of lines one such line; {@code null} and an empty list stay what they are.
 */
final class ShownValues {

    /** The members of a write's before and after that hold parameters or a payload, as JSON text. */
    private static final Set<String> VALUES = Set.of("params", "payload", "shardParams");

    private static final JsonMapper json = JsonMapper.builder().build();

    private final boolean shown;

    private final JsonSanitizer sanitizer;

    ShownValues(boolean shown, JsonSanitizer sanitizer) {
        this.shown = shown;
        this.sanitizer = sanitizer;
    }

    boolean masked() {
        return !this.shown;
    }

    /** A payload or parameters, as JSON text. */
    @Nullable
    String json(@Nullable String text) {
        if (text == null) {
            return null;
        }
        return this.shown ? this.sanitizer.sanitize(text) : SanitizableValue.SANITIZED_VALUE;
    }

    /** A stack trace. */
    @Nullable
    String text(@Nullable String text) {
        return (text == null || this.shown) ? text : SanitizableValue.SANITIZED_VALUE;
    }

    /** Shard parameters, by index: each masked, or shown as it is. */
    Map<Integer, String> params(Map<Integer, String> params) {
        if (params.isEmpty() || this.shown) {
            return params;
        }
        Map<Integer, String> masked = new TreeMap<>();
        params.keySet().forEach((index) -> masked.put(index, SanitizableValue.SANITIZED_VALUE));
        return masked;
    }

    /** Captured log lines. */
    List<String> lines(List<String> lines) {
        return (lines.isEmpty() || this.shown) ? lines : List.of(SanitizableValue.SANITIZED_VALUE);
    }

    /** The before or the after of a write, as the management answered it. */
    @Nullable
    Object change(@Nullable Object value) {
        if (!(value instanceof Map<?, ?> map) || map.keySet().stream().noneMatch(VALUES::contains)) {
            return value;
        }
        Map<Object, Object> copy = new LinkedHashMap<>(map);
        copy.replaceAll((key, member) -> (VALUES.contains(key) && member instanceof String text) ? json(text) : member);
        return copy;
    }

    /** The before or the after of a write, as the audit log keeps it in JSON. */
    @Nullable
    String audit(@Nullable String text) {
        if (text == null || VALUES.stream().noneMatch((key) -> text.contains('"' + key + '"'))) {
            return text;
        }
        JsonNode tree;
        try {
            tree = json.readTree(text);
        } catch (JacksonException ex) {
            // cut to the column's size: sanitized when it was written
            return this.shown ? text : SanitizableValue.SANITIZED_VALUE;
        }
        if (!(tree instanceof ObjectNode object)) {
            return text;
        }
        for (String key : VALUES) {
            JsonNode member = object.get(key);
            if (member != null && member.isString()) {
                object.put(key, json(member.asString()));
            }
        }
        return json.writeValueAsString(object);
    }
}
