package io.dsched.internal.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Parameters saved back as they were read, masked. */
class KeptSecretsTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private static final String STORED =
            "{\"apiKey\":\"s3cr3t\",\"note\":\"old\",\"smtp\":{\"host\":\"mail\",\"password\":\"hunter2\"}}";

    @Test
    void aMaskedMemberKeepsTheStoredValueOfTheSameNameAndTheRestIsTheNewOne() {
        JsonNode kept = (JsonNode) KeptSecrets.restore(
                json.readTree("{\"apiKey\":\"******\",\"note\":\"new\",\"smtp\":{\"host\":\"relay\","
                        + "\"password\":\"******\"}}"),
                STORED);

        assertThat(kept.toString())
                .isEqualTo("{\"apiKey\":\"s3cr3t\",\"note\":\"new\",\"smtp\":{\"host\":\"relay\","
                        + "\"password\":\"hunter2\"}}");
    }

    @Test
    void aMaskWithNothingStoredAtItsPlaceStaysAsSent() {
        JsonNode kept = (JsonNode) KeptSecrets.restore(json.readTree("{\"token\":\"******\"}"), "{\"other\":\"x\"}");

        assertThat(kept.toString()).isEqualTo("{\"token\":\"******\"}");
    }

    @Test
    void aMaskInsideAListIsRefusedAsItsEntriesHaveNoNamesToMatch() {
        String stored = "{\"targets\":[{\"url\":\"a\",\"token\":\"T1\"},{\"url\":\"b\",\"token\":\"T2\"}]}";

        assertThatIllegalArgumentException()
                .isThrownBy(() -> KeptSecrets.restore(
                        json.readTree("{\"targets\":[{\"url\":\"b\",\"token\":\"******\"}]}"), stored))
                .withMessageContaining("inside a list");
        // a list given whole is taken as it is
        JsonNode whole = (JsonNode)
                KeptSecrets.restore(json.readTree("{\"targets\":[{\"url\":\"b\",\"token\":\"T9\"}]}"), stored);
        assertThat(whole.toString()).isEqualTo("{\"targets\":[{\"url\":\"b\",\"token\":\"T9\"}]}");
    }
}
