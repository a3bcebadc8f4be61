package io.dsched.management;

import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * New parameters as an editor sends them back after reading them masked: wherever a value is
 * the mask and the stored parameters have a value at the same place, the stored value is kept, so
 * that saving a job's parameters does not replace its secrets with asterisks.
 */
final class KeptSecrets {

    /** The mask the endpoint shows in place of a value. */
    static final String MASK = "******";

    private static final JsonMapper json = JsonMapper.builder().build();

    private KeptSecrets() {}

    /**
     * Returns the new parameters with the stored value wherever they hold the mask.
     * @param edited the new parameters
     * @param stored the stored parameters as JSON text, or {@code null}
     * @return the parameters to store
     */
    static Object restore(Object edited, String stored) {
        if (!(edited instanceof JsonNode node) || stored == null) {
            return edited;
        }
        JsonNode original;
        try {
            original = json.readTree(stored);
        } catch (JacksonException ex) {
            return edited;
        }
        return merged(node.deepCopy(), original);
    }

    private static JsonNode merged(JsonNode edited, JsonNode original) {
        if (edited.isString() && MASK.equals(edited.asString()) && original != null && !original.isMissingNode()) {
            return original;
        }
        if (edited instanceof ObjectNode object && original != null && original.isObject()) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                field.setValue(merged(field.getValue(), original.get(field.getKey())));
            }
        } else if (edited instanceof ArrayNode array && original != null && original.isArray()) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, merged(array.get(i), original.get(i)));
            }
        }
        return edited;
    }
}
