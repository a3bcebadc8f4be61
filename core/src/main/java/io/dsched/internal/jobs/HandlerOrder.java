package io.dsched.internal.jobs;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives an attempt of a handler the order it is claimed in and the key its concurrency limit counts
 * it by, from the handler's declaration and the attempt's payload: for an attempt made without its
 * fire's earlier attempts at hand, such as the replay of a dead letter whose history was deleted.
 * An attempt of anything but a handler this node declares is left as it is: priority 0, and, for a
 * handler that counts its limit by key, the empty key.
 */
public final class HandlerOrder implements UnaryOperator<ExecutionRecord> {

    private static final Logger logger = LoggerFactory.getLogger(HandlerOrder.class);

    private final HandlerRegistry handlers;

    private final Payloads payloads;

    /**
     * Creates the order.
     * @param handlers the handlers this node declares
     * @param json reads payloads
     */
    public HandlerOrder(HandlerRegistry handlers, Supplier<JsonMapper> json) {
        this.handlers = handlers;
        this.payloads = new Payloads(handlers, json);
    }

    @Override
    public ExecutionRecord apply(ExecutionRecord attempt) {
        return this.handlers
                .handler(attempt.jobName())
                .map((handler) -> attempt.queued(handler.priority(), key(handler, attempt)))
                .orElse(attempt);
    }

    private String key(HandlerDefinition handler, ExecutionRecord attempt) {
        try {
            return this.payloads.limitKey(handler, attempt.payload());
        } catch (RuntimeException ex) {
            // a payload the handler's partitionBy no longer reads: the attempt runs all the same,
            // counted under the empty key
            logger.warn("The limit key of a replay of '{}' could not be read: {}", handler.name(), ex.getMessage());
            return "";
        }
    }
}
