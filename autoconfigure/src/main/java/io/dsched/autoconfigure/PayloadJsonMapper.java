package io.dsched.autoconfigure;

import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The mapper of job payloads: the application's, for its modules, but writing compact JSON. One
 * for the node, which the submissions and the handlers share, built once every singleton of the
 * application exists, the application's mapper among them, so that neither the first submission
 * nor the first run of a handler builds it (190 ms of CPU in a JVM that has just started); the
 * handlers' post-processor, which exists before the application's mapper does, holds it unbuilt
 * until then.
 */
final class PayloadJsonMapper implements Supplier<JsonMapper>, SmartInitializingSingleton {

    private final ObjectProvider<JsonMapper> jsonMappers;

    private volatile JsonMapper mapper;

    /**
     * Derives the payload mapper from the application's mapper, when first asked for.
     * @param jsonMappers the application's mapper, if it has one
     */
    PayloadJsonMapper(ObjectProvider<JsonMapper> jsonMappers) {
        this.jsonMappers = jsonMappers;
    }

    @Override
    public JsonMapper get() {
        JsonMapper built = this.mapper;
        if (built == null) {
            synchronized (this) {
                if (this.mapper == null) {
                    // compact, since the JSON goes into the payload columns
                    this.mapper = this.jsonMappers
                            .getIfAvailable(() -> JsonMapper.builder().build())
                            .rebuild()
                            .disable(SerializationFeature.INDENT_OUTPUT)
                            .build();
                }
                built = this.mapper;
            }
        }
        return built;
    }

    /** Builds the mapper, once every singleton exists. */
    @Override
    public void afterSingletonsInstantiated() {
        get();
    }

    /**
     * Tells whether the mapper has been built.
     * @return whether it has
     */
    boolean built() {
        return this.mapper != null;
    }
}
