package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.dsched.actuate.ValueSanitizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The default {@link SecretKeySanitizer} and the walk of {@link JsonSanitizer} over a payload's or
 * parameters' JSON: which keys are masked, where in the JSON, and what is left as it was.
 */
class SanitizerTests {

    private final JsonSanitizer defaults = new JsonSanitizer(List.of(new SecretKeySanitizer(List.of())));

    @Test
    void keysThatContainAWordOfASecretAreMaskedIgnoringCase() {
        for (String key : List.of(
                "apiKey",
                "api_key",
                "client-secret",
                "dbPassword",
                "credentials",
                "ACCESS_TOKEN",
                "Secret",
                "privateKeyPem",
                "keyboard")) {
            assertThat(this.defaults.sanitize("{\"" + key + "\":\"s3cr3t\",\"note\":\"fine\"}"))
                    .as(key)
                    .isEqualTo("{\"" + key + "\":\"******\",\"note\":\"fine\"}");
        }
    }

    @Test
    void keysAreFoundInNestedObjectsAndInObjectsInArraysAndASecretObjectIsMaskedWhole() {
        String json = "{\"to\":\"a@b.c\",\"accounts\":[{\"name\":\"main\",\"dbPassword\":\"hunter2\"},[{\"token\":1}]],"
                + "\"smtp\":{\"host\":\"mail\",\"credentials\":{\"user\":\"u\",\"pass\":\"p\"}},\"keys\":[1,2]}";
        assertThat(this.defaults.sanitize(json))
                .isEqualTo("{\"to\":\"a@b.c\",\"accounts\":[{\"name\":\"main\",\"dbPassword\":\"******\"},"
                        + "[{\"token\":\"******\"}]],\"smtp\":{\"host\":\"mail\",\"credentials\":\"******\"},"
                        + "\"keys\":\"******\"}");
    }

    @Test
    void jsonWithoutASecretIsLeftAsItWasAndNullStaysNull() {
        String json = "{ \"amount\" : 12345678901234567890.10, \"items\": [1, 2.50] }";
        assertThat(this.defaults.sanitize(json)).isSameAs(json);
        assertThat(this.defaults.sanitize("\"just text\"")).isEqualTo("\"just text\"");
        assertThat(this.defaults.sanitize(null)).isNull();
    }

    @Test
    void numbersKeepTheirDigitsWhenASecretIsMaskedBesideThem() {
        assertThat(this.defaults.sanitize("{\"amount\":12345678901234567890.10,\"token\":7,\"tries\":null}"))
                .isEqualTo("{\"amount\":12345678901234567890.10,\"token\":\"******\",\"tries\":null}");
    }

    @Test
    void textThatIsNotJsonIsMaskedWhole() {
        assertThat(this.defaults.sanitize("password=hunter2")).isEqualTo("******");
        assertThat(this.defaults.sanitize("{\"note\":\"fine\"} {\"apiKey\":\"s3cr3t\"}"))
                .isEqualTo("******");
        assertThat(this.defaults.sanitize("{\"apiKey\":\"s3cr3t\"")).isEqualTo("******");
        // a key twice: the walk would see only the last value, the text would keep the first
        assertThat(this.defaults.sanitize("{\"a\":{\"password\":\"s3cr3t\"},\"a\":1}"))
                .isEqualTo("******");
    }

    @Test
    void additionalKeysAreRegularExpressionsThatMatchTheWholeKeyIgnoringCase() {
        JsonSanitizer sanitizer = new JsonSanitizer(List.of(new SecretKeySanitizer(List.of("pin", ".*iban.*"))));
        assertThat(sanitizer.sanitize("{\"PIN\":1234,\"spinner\":true,\"payerIban\":\"DE00\",\"note\":\"fine\"}"))
                .isEqualTo("{\"PIN\":\"******\",\"spinner\":true,\"payerIban\":\"******\",\"note\":\"fine\"}");
        assertThat(sanitizer.sanitize("{\"apiKey\":\"s3cr3t\"}")).isEqualTo("{\"apiKey\":\"******\"}");
    }

    @Test
    void anAdditionalKeyThatIsNotARegularExpressionIsRefusedWithTheProperty() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new SecretKeySanitizer(List.of("[pin")))
                .withMessageStartingWith("Invalid key '[pin' in dsched.management.additional-keys-to-sanitize: ");
    }

    @Test
    void theFirstSanitizerThatChangesAValueDecidesAndWhatItReturnedIsNotWalked() {
        ValueSanitizer notes = (data) -> data.lowerCaseKey().equals("note") ? "[note]" : data.value();
        ValueSanitizer everything = (data) -> "[everything]";
        ValueSanitizer nested =
                (data) -> data.key().equals("smtp") ? List.of(java.util.Map.of("token", "x")) : data.value();
        JsonSanitizer sanitizer = new JsonSanitizer(List.of(notes, nested, everything));
        assertThat(sanitizer.sanitize("{\"Note\":\"a\",\"smtp\":{\"host\":\"mail\"},\"to\":\"a@b.c\"}"))
                .isEqualTo("{\"Note\":\"[note]\",\"smtp\":[{\"token\":\"x\"}],\"to\":\"[everything]\"}");
    }
}
