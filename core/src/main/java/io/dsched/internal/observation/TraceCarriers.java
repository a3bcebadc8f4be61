package io.dsched.internal.observation;

import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Writes the propagation fields of a trace as a JSON object, and reads them back. */
final class TraceCarriers {

    private static final JsonMapper json = JsonMapper.builder().build();

    private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() {};

    private TraceCarriers() {}

    /**
     * Writes propagation fields.
     * @param carrier the fields, for example {@code traceparent}
     * @return a JSON object, or {@code null} when there are none
     */
    static String encode(Map<String, String> carrier) {
        return (carrier == null || carrier.isEmpty()) ? null : json.writeValueAsString(carrier);
    }

    /**
     * Reads propagation fields.
     * @param text a JSON object
     * @return the fields, none if the text is not an object of strings
     */
    static Map<String, String> decode(String text) {
        try {
            Map<String, String> fields = json.readValue(text, FIELDS);
            return (fields != null) ? fields : Map.of();
        } catch (JacksonException ex) {
            return Map.of();
        }
    }
}
