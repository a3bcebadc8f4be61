package io.dsched.internal.jobs;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.handler.HandlerRegistry;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import tools.jackson.databind.json.JsonMapper;

/**
 * Gives an attempt of a handler the order it is claimed in and the key its concurrency limit counts
 * it by, from the handler's declaration and the attempt's payload: for an attempt made without its
 * fire's earlier attempts at hand, such as the replay of a dead letter whose history was deleted.
 * An attempt of anything but a handler this node declares is left as it is.
 */
public final class HandlerOrder implements UnaryOperator<ExecutionRecord> {

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
                .map((handler) ->
                        attempt.queued(handler.priority(), this.payloads.limitKey(handler, attempt.payload())))
                .orElse(attempt);
    }
}
