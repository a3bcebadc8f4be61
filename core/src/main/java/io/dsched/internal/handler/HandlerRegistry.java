package io.dsched.internal.handler;

import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.store.TargetLimits;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code @JobHandler} methods this node declares, by name. One-off jobs run on any node
 * that declares their handler, several at once.
 */
public final class HandlerRegistry implements JobTargets, ConcurrencyLimits {

    private final Map<String, HandlerDefinition> handlers = new LinkedHashMap<>();

    /** The limits of each handler, made once: read for every claim and every attempt. */
    private final Map<String, TargetLimits> limits = new ConcurrentHashMap<>();

    /**
     * Adds a handler.
     * @param handler the handler
     * @throws InvalidJobDefinitionException if another handler has the same name
     */
    public synchronized void register(HandlerDefinition handler) {
        HandlerDefinition existing = this.handlers.putIfAbsent(handler.name(), handler);
        if (existing != null) {
            throw new InvalidJobDefinitionException(
                    handler.source(), "handler name '" + handler.name() + "' is already used by " + existing.source());
        }
        this.limits.put(handler.name(), handler.limits());
    }

    /**
     * Looks a handler up.
     * @param name the handler's name
     * @return the handler, or empty
     */
    public synchronized Optional<HandlerDefinition> handler(String name) {
        return Optional.ofNullable(this.handlers.get(name));
    }

    @Override
    public Optional<JobTarget> find(String name) {
        return handler(name)
                .map((handler) -> new JobTarget(
                        handler.name(),
                        handler.group(),
                        handler.retry(),
                        handler.timeout(),
                        false,
                        null,
                        null,
                        null,
                        null,
                        handler.invoker()));
    }

    @Override
    public TargetLimits limitsOf(String name) {
        return this.limits.getOrDefault(name, TargetLimits.NONE);
    }

    /**
     * Returns the rate a handler declares.
     * @param name the handler's name
     * @return its rate, or {@code null}
     */
    public Rate rate(String name) {
        return handler(name).map(HandlerDefinition::rate).orElse(null);
    }

    /**
     * Returns the quota a handler declares.
     * @param name the handler's name
     * @return its quota, or {@code null}
     */
    public Rate quota(String name) {
        return handler(name).map(HandlerDefinition::quota).orElse(null);
    }

    /**
     * Returns the rate of each key a handler declares.
     * @param name the handler's name
     * @return its rate of each key, or {@code null}
     */
    public Rate keyRate(String name) {
        return handler(name).map(HandlerDefinition::keyRate).orElse(null);
    }

    @Override
    public synchronized Set<String> names() {
        return new TreeSet<>(this.handlers.keySet());
    }
}
