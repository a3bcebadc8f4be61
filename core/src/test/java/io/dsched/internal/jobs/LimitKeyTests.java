package io.dsched.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.retry.RetryPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The key a handler's concurrency limit counts an attempt by: the value its {@code partitionBy}
 * points at in the payload, as text, or the empty key where there is none.
 */
class LimitKeyTests {

    private final Payloads payloads = new Payloads(null, JsonMapper.builder()::build);

    @Test
    void theKeyIsTheTextOfTheValueThePointerFinds() {
        assertThat(key("/tenant", "{\"tenant\":\"acme\",\"n\":1}")).isEqualTo("acme");
        assertThat(key("/customer/region", "{\"customer\":{\"region\":\"eu-west\"}}"))
                .isEqualTo("eu-west");
        assertThat(key("/shop", "{\"shop\":42}")).isEqualTo("42");
        assertThat(key("/tags", "{\"tags\":[\"a\",\"b\"]}")).isEqualTo("[\"a\",\"b\"]");
    }

    @Test
    void trailingSpacesAreNoPartOfAKeyAsMySqlComparesThem() {
        assertThat(key("/tenant", "{\"tenant\":\"acme  \"}")).isEqualTo("acme");
        assertThat(key("/tenant", "{\"tenant\":\" acme\\t\"}")).isEqualTo(" acme\t");
        assertThat(key("/tenant", "{\"tenant\":\"   \"}")).isEmpty();
    }

    @Test
    void aPayloadWithoutTheValueHasTheEmptyKey() {
        assertThat(key("/tenant", "{\"n\":1}")).isEmpty();
        assertThat(key("/tenant", "{\"tenant\":null}")).isEmpty();
        assertThat(key("/tenant", null)).isEmpty();
    }

    @Test
    void aHandlerThatCountsAsAWholeHasNoKey() {
        assertThat(key(null, "{\"tenant\":\"acme\"}")).isNull();
    }

    @Test
    void aKeyLongerThanTheColumnIsRefused() {
        String payload = "{\"tenant\":\"" + "x".repeat(201) + "\"}";
        assertThatIllegalArgumentException()
                .isThrownBy(() -> key("/tenant", payload))
                .withMessageContaining("has 201 characters; at most 200");
    }

    private String key(String partitionBy, String payload) {
        return this.payloads.limitKey(handler(partitionBy), payload);
    }

    private static HandlerDefinition handler(String partitionBy) {
        RetryPolicy retry = new RetryPolicy(
                1, Duration.ofSeconds(1), 1, Duration.ofSeconds(1), Duration.ZERO, List.of(), List.of());
        return new HandlerDefinition(
                "work",
                null,
                "default",
                retry,
                null,
                "test",
                3,
                null,
                partitionBy,
                0,
                null,
                null,
                null,
                null,
                (context, payload) -> {});
    }
}
