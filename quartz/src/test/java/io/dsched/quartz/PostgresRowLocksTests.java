package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.quartz.contract.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quartz.JobKey;

/**
 * The locks of a batch reach their rows through the primary key on PostgreSQL, not by reading the
 * whole table: on a table of a thousand jobs a list of (name, group) pairs alone made the planner
 * scan every row, and a table whose rows Quartz rewrites at every fire grows dead ones to scan too.
 * The transaction's own scan counts ({@code pg_stat_xact_user_tables}) say which way it went.
 */
class PostgresRowLocksTests {

    private static final String PREFIX = "QPLAN_";

    @Test
    void theJobsOfABatchAreLockedThroughThePrimaryKeyNotByAScanOfTheTable() throws SQLException {
        TestDatabase database = TestDatabase.of(TestDatabase.Kind.POSTGRES);
        database.createTables(PREFIX);
        try (Connection conn = database.connect()) {
            try (Statement statement = conn.createStatement()) {
                statement.execute("DELETE FROM " + PREFIX + "JOB_DETAILS WHERE SCHED_NAME = 'plan'");
                statement.execute("INSERT INTO " + PREFIX + "JOB_DETAILS (SCHED_NAME, JOB_NAME, JOB_GROUP,"
                        + " JOB_CLASS_NAME, IS_DURABLE, IS_NONCONCURRENT, IS_UPDATE_DATA, REQUESTS_RECOVERY)"
                        + " SELECT 'plan', 'job-' || i, 'dsched', 'x', true, true, false, false"
                        + " FROM generate_series(1, 1000) i");
                statement.execute("ANALYZE " + PREFIX + "JOB_DETAILS");
            }
            conn.setAutoCommit(false);
            List<JobKey> batch = IntStream.rangeClosed(1, 10)
                    .mapToObj((i) -> JobKey.jobKey("job-" + (i * 97), "dsched"))
                    .toList();

            new RowLocks(PREFIX, "plan").lockJobs(conn, batch);

            try (PreparedStatement scans = conn.prepareStatement(
                    "SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables WHERE relname = lower(?)")) {
                scans.setString(1, PREFIX + "JOB_DETAILS");
                try (ResultSet counts = scans.executeQuery()) {
                    assertThat(counts.next()).isTrue();
                    assertThat(counts.getLong("seq_scan"))
                            .as("scans of the whole table")
                            .isZero();
                    assertThat(counts.getLong("idx_scan"))
                            .as("scans of an index")
                            .isPositive();
                }
            }
            conn.rollback();
        }
    }
}
