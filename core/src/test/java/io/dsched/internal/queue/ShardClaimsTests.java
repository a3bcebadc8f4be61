package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShardClaimsTests {

    @Test
    void aNodesShareIsAnEqualPartOfAFiresShardsRoundedUp() {
        assertThat(ShardClaims.share(12, 3)).isEqualTo(4);
        assertThat(ShardClaims.share(12, 5)).isEqualTo(3);
        assertThat(ShardClaims.share(2, 3)).isEqualTo(1);
        // alone, or before it sees any node alive (its own row included), a node takes them all
        assertThat(ShardClaims.share(12, 1)).isEqualTo(12);
        assertThat(ShardClaims.share(12, 0)).isEqualTo(12);
    }
}
