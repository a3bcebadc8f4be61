package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * dsched's lock table, written over plain JDBC with ShedLock's statements, takes and releases
 * locks as ShedLock's own provider does, on the same rows, and inside a transaction where the
 * database allows it.
 */
abstract class AbstractLockTableTests {

    private TestDatabase database;

    private HikariDataSource dataSource;

    private DatabasePlatform platform;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void createDatabase() {
        this.database = TestDatabases.create(kind());
        this.dataSource = this.database.newDataSource();
        this.platform = DatabasePlatform.detect(this.dataSource);
        new DschedSchemaInitializer(new DschedJdbc(this.dataSource, this.platform), DatabaseInitializationMode.ALWAYS)
                .initializeDatabase();
    }

    @AfterEach
    void dropDatabase() {
        if (this.dataSource != null) {
            this.dataSource.close();
        }
        if (this.database != null) {
            this.database.close();
        }
    }

    @Test
    void aLockIsHeldUntilReleasedAndThenFreeAgain() {
        LockTable one = table("node-1");
        LockTable two = table("node-2");

        assertThat(one.lock(lock("job", Duration.ofMinutes(1), Duration.ZERO))).isTrue();
        assertThat(two.lock(lock("job", Duration.ofMinutes(1), Duration.ZERO))).isFalse();
        assertThat(one.lock(lock("job", Duration.ofMinutes(1), Duration.ZERO))).isFalse();
        assertThat(two.lock(lock("other", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();
        assertThat(lockedBy("job")).isEqualTo("node-1");

        one.unlock(lock("job", Duration.ofMinutes(1), Duration.ZERO));

        assertThat(two.lock(lock("job", Duration.ofMinutes(1), Duration.ZERO))).isTrue();
        assertThat(lockedBy("job")).isEqualTo("node-2");
    }

    @Test
    void aReleasedLockStaysHeldForItsLockAtLeastFor() {
        LockTable one = table("node-1");
        LockConfiguration held = lock("job", Duration.ofMinutes(1), Duration.ofMinutes(1));
        assertThat(one.lock(held)).isTrue();

        one.unlock(held);

        assertThat(table("node-2").lock(lock("job", Duration.ofMinutes(1), Duration.ZERO)))
                .isFalse();
    }

    @Test
    void aLockPastItsLockAtMostForIsFreeForTheNextRun() {
        LockTable one = table("node-1");
        assertThat(one.lock(lock("job", Duration.ofMillis(1), Duration.ZERO))).isTrue();

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> table("node-2")
                .lock(lock("job", Duration.ofMinutes(1), Duration.ZERO)));
        assertThat(lockedBy("job")).isEqualTo("node-2");
    }

    @Test
    void shedLocksOwnProviderAndTheTableSeeEachOthersLocks() {
        JdbcTemplateLockProvider shedLock = new JdbcTemplateLockProvider(
                LockTable.configuration(this.dataSource, this.platform, ClusterTables.DEFAULT, "shedlock"));
        LockTable table = table("node-1");

        SimpleLock taken = shedLock.lock(lock("first", Duration.ofMinutes(1), Duration.ZERO))
                .orElseThrow();
        assertThat(table.lock(lock("first", Duration.ofMinutes(1), Duration.ZERO)))
                .isFalse();
        taken.unlock();
        assertThat(table.lock(lock("first", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();

        assertThat(table.lock(lock("second", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();
        assertThat(shedLock.lock(lock("second", Duration.ofMinutes(1), Duration.ZERO)))
                .isEmpty();
        table.unlock(lock("second", Duration.ofMinutes(1), Duration.ZERO));
        assertThat(shedLock.lock(lock("second", Duration.ofMinutes(1), Duration.ZERO)))
                .isPresent();
    }

    @Test
    void aLockTakenInsideATransactionIsHeldOnlyIfItCommits() throws SQLException {
        LockTable one = table("node-1");
        if (!one.locksInTransactions()) {
            assertThat(this.platform).isEqualTo(DatabasePlatform.H2);
            try (Connection connection = this.dataSource.getConnection()) {
                assertThatExceptionOfType(UnsupportedOperationException.class)
                        .isThrownBy(() -> one.lockOn(connection, lock("job", Duration.ofMinutes(1), Duration.ZERO)));
            }
            return;
        }
        try (Connection connection = this.dataSource.getConnection()) {
            connection.setAutoCommit(false);
            // a new row, then an existing free one: both inside the transaction
            assertThat(one.lockOn(connection, lock("rolled-back", Duration.ofMinutes(1), Duration.ZERO)))
                    .isTrue();
            connection.rollback();
            assertThat(one.lockOn(connection, lock("committed", Duration.ofMinutes(1), Duration.ZERO)))
                    .isTrue();
            assertThat(one.lockOn(connection, lock("committed", Duration.ofMinutes(1), Duration.ZERO)))
                    .isFalse();
            connection.commit();
            connection.setAutoCommit(true);
        }
        LockTable two = table("node-2");
        assertThat(two.lock(lock("rolled-back", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();
        assertThat(two.lock(lock("committed", Duration.ofMinutes(1), Duration.ZERO)))
                .isFalse();
        assertThat(lockedBy("committed")).isEqualTo("node-1");
    }

    @Test
    void locksReleasedInsideATransactionAreFreeOnlyIfItCommitsAndAnotherNodesLockIsLeftAlone() throws SQLException {
        LockTable one = table("node-1");
        LockTable two = table("node-2");
        LockConfiguration first = lock("first", Duration.ofMinutes(1), Duration.ZERO);
        LockConfiguration second = lock("second", Duration.ofMinutes(1), Duration.ZERO);
        LockConfiguration kept = lock("kept", Duration.ofMinutes(1), Duration.ofMinutes(1));
        assertThat(one.lock(first)).isTrue();
        assertThat(one.lock(second)).isTrue();
        assertThat(one.lock(kept)).isTrue();
        LockConfiguration others = lock("others", Duration.ofMinutes(1), Duration.ZERO);
        assertThat(two.lock(others)).isTrue();

        try (Connection connection = this.dataSource.getConnection()) {
            connection.setAutoCommit(false);
            one.unlockOn(connection, List.of(first, second));
            connection.rollback();
            assertThat(two.lock(lock("first", Duration.ofMinutes(1), Duration.ZERO)))
                    .isFalse();
            // node 1 never held "others": its release leaves node 2's lock alone
            one.unlockOn(connection, List.of(first, second, kept, others));
            connection.commit();
            connection.setAutoCommit(true);
        }

        assertThat(two.lock(lock("first", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();
        assertThat(two.lock(lock("second", Duration.ofMinutes(1), Duration.ZERO)))
                .isTrue();
        // released, but held for its lockAtLeastFor
        assertThat(two.lock(lock("kept", Duration.ofMinutes(1), Duration.ZERO))).isFalse();
        assertThat(one.lock(lock("others", Duration.ofMinutes(1), Duration.ZERO)))
                .isFalse();
        assertThat(lockedBy("others")).isEqualTo("node-2");
    }

    private LockTable table(String node) {
        return new LockTable(this.dataSource, this.platform, ClusterTables.DEFAULT, node);
    }

    private String lockedBy(String name) {
        return new JdbcTemplate(this.dataSource)
                .queryForObject("SELECT locked_by FROM dsched_lock WHERE name = ?", String.class, name);
    }

    private static LockConfiguration lock(String name, Duration atMostFor, Duration atLeastFor) {
        return new LockConfiguration(Instant.now(), name, atMostFor, atLeastFor);
    }
}
