package io.dsched.internal.management;

import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * New parameters as an editor sends them back after reading them masked: wherever a member of an
 * object is the mask and the stored parameters have a member of the same name at the same place,
 * the stored value is kept, so that saving a job's parameters does not replace its secrets with
 * asterisks. A mask inside a list is refused: its entries have no names to match them by.
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
     * @throws IllegalArgumentException if the mask stands inside a list
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
        } else if (edited instanceof ArrayNode array && holdsMask(array)) {
            // a list's entries have no names: after one was removed or moved, a kept value would
            // land on another entry, and a secret go with another host
            throw new IllegalArgumentException(
                    "params hold " + MASK + " inside a list; give the values of a list's entries");
        }
        return edited;
    }

    private static boolean holdsMask(JsonNode node) {
        if (node.isString()) {
            return MASK.equals(node.asString());
        }
        for (JsonNode child : node.values()) {
            if (holdsMask(child)) {
                return true;
            }
        }
        return false;
    }
}
