package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The names of a cluster's tables, and the renaming of dsched's SQL and scripts. */
class ClusterTablesTests {

    @Test
    void theDefaultClusterKeepsTheScriptsNames() {
        String sql = "SELECT id FROM dsched_execution e JOIN dsched_node n ON n.node_id = e.node_id";
        assertThat(ClusterTables.of("dsched").sql(sql)).isSameAs(sql);
        assertThat(ClusterTables.of("dsched")).isSameAs(ClusterTables.DEFAULT);
    }

    @Test
    void anotherClusterLeadsEveryTableIndexAndConstraintNameWithItsOwnButNotQuartzs() {
        ClusterTables billing = ClusterTables.of("billing");
        assertThat(billing.sql("DELETE FROM dsched_node WHERE NOT EXISTS (SELECT 1 FROM dsched_execution e"
                        + " WHERE e.node_id = dsched_node.node_id)"))
                .isEqualTo("DELETE FROM billing_dsched_node WHERE NOT EXISTS (SELECT 1 FROM billing_dsched_execution e"
                        + " WHERE e.node_id = billing_dsched_node.node_id)");
        assertThat(billing.sql("CREATE INDEX IF NOT EXISTS idx_dsched_execution_job ON dsched_execution (job_name)"))
                .isEqualTo("CREATE INDEX IF NOT EXISTS idx_billing_dsched_execution_job"
                        + " ON billing_dsched_execution (job_name)");
        assertThat(billing.sql("SELECT * FROM DSCHED_QRTZ_TRIGGERS")).isEqualTo("SELECT * FROM DSCHED_QRTZ_TRIGGERS");
        assertThat(billing.table("dsched_lock")).isEqualTo("billing_dsched_lock");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Billing", "billing-eu", "1billing", "_billing", "a_name_of_twenty_one_"})
    void aNameThatCannotLeadATableNameIsRefusedWithTheRule(String name) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ClusterTables.of(name))
                .withMessageContaining("[a-z][a-z0-9_]{0,19}")
                .withMessageContaining("'" + name + "'");
    }

    @Test
    void aNameOfTwentyCharactersIsAccepted() {
        assertThat(ClusterTables.of("a_name_of_twenty_ch_").clusterName()).hasSize(20);
    }

    /** Every name a script creates, renamed for the longest cluster name, fits in 63 characters. */
    @ParameterizedTest
    @EnumSource(DatabasePlatform.class)
    void everyNameOfTheScriptsFitsTheDatabasesLimitForTheLongestClusterName(DatabasePlatform platform)
            throws IOException {
        String script;
        try (InputStream in = getClass().getResourceAsStream("/io/dsched/store/schema-" + platform.id() + ".sql")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String renamed = ClusterTables.of("a_name_of_twenty_ch_").sql(script);
        Matcher names = Pattern.compile("\\b[A-Za-z_]*dsched_[A-Za-z0-9_]*").matcher(renamed);
        int found = 0;
        while (names.find()) {
            assertThat(names.group()).hasSizeLessThanOrEqualTo(63);
            found++;
        }
        assertThat(found).isGreaterThan(20);
    }
}
