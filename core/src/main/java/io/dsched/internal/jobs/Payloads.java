package io.dsched.internal.jobs;

import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.UnknownJobException;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The handlers a job may name, and the payloads they take: written as JSON and read back as their type. */
final class Payloads {

    /** The longest key a concurrency limit counts by: as long as {@code dsched_execution.limit_key}. */
    static final int MAX_KEY = 200;

    private final HandlerRegistry handlers;

    private final Supplier<JsonMapper> json;

    Payloads(HandlerRegistry handlers, Supplier<JsonMapper> json) {
        this.handlers = handlers;
        this.json = json;
    }

    HandlerDefinition handler(String name) {
        return this.handlers
                .handler(name)
                .orElseThrow(() -> new UnknownJobException(
                        "No @JobHandler named '" + name + "'; known handlers: " + this.handlers.names()));
    }

    String write(HandlerDefinition handler, Object payload) {
        if (payload == null) {
            return null;
        }
        JsonMapper mapper = this.json.get();
        String text;
        try {
            text = mapper.writeValueAsString(payload);
        } catch (JacksonException ex) {
            throw new IllegalArgumentException(
                    "The payload of '" + handler.name() + "' cannot be written as JSON: " + ex.getOriginalMessage(),
                    ex);
        }
        if (text.length() > JobScheduler.MAX_PAYLOAD) {
            throw new IllegalArgumentException("The payload of '" + handler.name() + "' has " + text.length()
                    + " characters of JSON; at most " + JobScheduler.MAX_PAYLOAD + " are allowed");
        }
        if (handler.payloadType() != null) {
            try {
                mapper.readValue(text, mapper.getTypeFactory().constructType(handler.payloadType()));
            } catch (JacksonException ex) {
                throw new IllegalArgumentException(
                        "The payload of '" + handler.name() + "' cannot be read as "
                                + handler.payloadType().getTypeName() + " " + JsonProblem.where(ex),
                        ex);
            }
        }
        return text;
    }

    /**
     * The key the handler's concurrency limit counts an attempt by: the value its {@code
     * partitionBy} points at in the payload, as text without trailing spaces; the empty key where
     * the payload has none.
     * @param handler the handler
     * @param payload the payload as JSON, or {@code null}
     * @return the key, or {@code null} if the handler counts as a whole
     */
    String limitKey(HandlerDefinition handler, String payload) {
        if (handler.partitionBy() == null) {
            return null;
        }
        JsonNode value = (payload != null) ? this.json.get().readTree(payload).at(handler.partitionBy()) : null;
        String key;
        if (value == null || value.isMissingNode() || value.isNull()) {
            key = "";
        } else {
            key = value.isValueNode() ? value.asString() : value.toString();
        }
        // MySQL and MariaDB compare keys without their trailing spaces: so does every database
        int end = key.length();
        while (end > 0 && key.charAt(end - 1) == ' ') {
            end--;
        }
        key = key.substring(0, end);
        if (key.length() > MAX_KEY) {
            throw new IllegalArgumentException("The key '" + handler.partitionBy() + "' of the payload of '"
                    + handler.name() + "' has " + key.length() + " characters; at most " + MAX_KEY
                    + " are allowed");
        }
        return key;
    }
}
