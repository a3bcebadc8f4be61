package io.dsched.autoconfigure;

import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.function.SingletonSupplier;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The mapper of job payloads: the application's, for its modules, but writing compact JSON. */
final class PayloadJsonMapper {

    private PayloadJsonMapper() {}

    /**
     * Returns the payload mapper, derived from the application's mapper when first asked for.
     * @param jsonMappers the application's mapper, if it has one
     * @return the mapper's supplier
     */
    static Supplier<JsonMapper> of(ObjectProvider<JsonMapper> jsonMappers) {
        // compact, since the JSON goes into the payload columns
        return SingletonSupplier.of(() -> jsonMappers
                .getIfAvailable(() -> JsonMapper.builder().build())
                .rebuild()
                .disable(SerializationFeature.INDENT_OUTPUT)
                .build());
    }
}
