package io.dsched.internal.actuate;

import io.dsched.actuate.SanitizableValue;
import io.dsched.actuate.ValueSanitizer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Applies the {@link ValueSanitizer}s to the JSON text of a payload or of parameters: every key of
 * every object, objects nested in arrays too. Text that is not JSON, or holds a key twice in one
 * object, is masked whole, as there is no telling what it holds.
 */
final class JsonSanitizer {

    private static final JsonMapper json = JsonMapper.builder()
            // a key given twice would hide its first value from the walk: such text is masked whole
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonNodeFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    private final List<ValueSanitizer> sanitizers;

    JsonSanitizer(List<ValueSanitizer> sanitizers) {
        this.sanitizers = List.copyOf(sanitizers);
    }

    /**
     * Sanitizes JSON text.
     * @param text the JSON, or {@code null}
     * @return the text as it was if no value changed, else the sanitized JSON; masked whole if it
     *     is not JSON
     */
    @Nullable
    String sanitize(@Nullable String text) {
        if (text == null) {
            return null;
        }
        JsonNode tree;
        try {
            tree = json.readTree(text);
        } catch (JacksonException ex) {
            return SanitizableValue.SANITIZED_VALUE;
        }
        return walk(tree) ? json.writeValueAsString(tree) : text;
    }

    /** Sanitizes a tree in place; returns whether a value changed. */
    private boolean walk(JsonNode node) {
        boolean changed = false;
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> property : object.properties()) {
                Object value = json.treeToValue(property.getValue(), Object.class);
                Object shown = apply(new SanitizableValue(property.getKey(), value));
                if (!Objects.equals(shown, value)) {
                    // replaces the value of a key the loop is at, which leaves the iteration valid
                    object.set(property.getKey(), (shown != null) ? json.valueToTree(shown) : NullNode.getInstance());
                    changed = true;
                } else {
                    changed |= walk(property.getValue());
                }
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                changed |= walk(element);
            }
        }
        return changed;
    }

    private @Nullable Object apply(SanitizableValue data) {
        for (ValueSanitizer sanitizer : this.sanitizers) {
            Object shown = sanitizer.apply(data);
            if (!Objects.equals(shown, data.value())) {
                return shown;
            }
        }
        return data.value();
    }
}
