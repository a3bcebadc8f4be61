package io.dsched.internal.jobs;

import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.UnknownJobException;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** The handlers a job may name, and the payloads they take: written as JSON and read back as their type. */
final class Payloads {

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
}
