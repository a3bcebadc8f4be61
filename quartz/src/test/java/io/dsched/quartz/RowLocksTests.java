package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quartz.JobKey;
import org.quartz.TriggerKey;

/**
 * A fire of a batch locks its jobs and its triggers with one statement each, not one per trigger:
 * the firing transaction runs on Quartz's one scheduler thread, so each round trip in it delays
 * every fire due behind it. The statements are counted on H2; the contract suites prove on
 * PostgreSQL and MariaDB that the rows are held.
 */
class RowLocksTests {

    private Connection database;

    private final AtomicInteger queries = new AtomicInteger();

    private final List<String> statements = new ArrayList<>();

    @BeforeEach
    void createTables() throws SQLException {
        this.database = DriverManager.getConnection("jdbc:h2:mem:row-locks;DB_CLOSE_DELAY=-1");
        try (Statement statement = this.database.createStatement()) {
            statement.execute("CREATE TABLE Q_JOB_DETAILS (SCHED_NAME VARCHAR(120), JOB_NAME VARCHAR(200),"
                    + " JOB_GROUP VARCHAR(200), PRIMARY KEY (SCHED_NAME, JOB_NAME, JOB_GROUP))");
            statement.execute("CREATE TABLE Q_TRIGGERS (SCHED_NAME VARCHAR(120), TRIGGER_NAME VARCHAR(200),"
                    + " TRIGGER_GROUP VARCHAR(200), TRIGGER_STATE VARCHAR(16),"
                    + " PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP))");
        }
        try (PreparedStatement job = this.database.prepareStatement("INSERT INTO Q_JOB_DETAILS VALUES ('s', ?, 'g')");
                PreparedStatement trigger =
                        this.database.prepareStatement("INSERT INTO Q_TRIGGERS VALUES ('s', ?, 'g', 'ACQUIRED')")) {
            for (int i = 0; i < 1_200; i++) {
                job.setString(1, "job-" + i);
                job.executeUpdate();
                trigger.setString(1, "trigger-" + i);
                trigger.executeUpdate();
            }
        }
        this.database.setAutoCommit(false);
    }

    @AfterEach
    void dropTables() throws SQLException {
        try (Statement statement = this.database.createStatement()) {
            statement.execute("DROP ALL OBJECTS");
        }
        this.database.close();
    }

    @Test
    void theJobsAndTriggersOfABatchAreLockedWithOneStatementEach() throws SQLException {
        RowLocks locks = new RowLocks("Q_", "s");
        Connection counted = counting(this.database);

        locks.lockJobs(counted, keys(10, (i) -> JobKey.jobKey("job-" + i, "g")));
        locks.lockTriggers(counted, keys(10, (i) -> TriggerKey.triggerKey("trigger-" + i, "g")));

        assertThat(this.queries).hasValue(2);
        assertThat(this.statements).allSatisfy((sql) -> assertThat(sql).contains("ORDER BY", "FOR UPDATE"));
    }

    @Test
    void moreKeysThanOneStatementTakesAreLockedInChunks() throws SQLException {
        RowLocks locks = new RowLocks("Q_", "s");

        locks.lockJobs(counting(this.database), keys(RowLocks.CHUNK + 1, (i) -> JobKey.jobKey("job-" + i, "g")));

        assertThat(this.queries).hasValue(2);
    }

    @Test
    void noKeysTakeNoStatement() throws SQLException {
        new RowLocks("Q_", "s").lockJobs(counting(this.database), List.of());

        assertThat(this.queries).hasValue(0);
    }

    private static <K> List<K> keys(int count, java.util.function.IntFunction<K> key) {
        return IntStream.range(0, count).mapToObj(key).toList();
    }

    /** The connection, with its prepared statements' queries counted. */
    private Connection counting(Connection target) {
        return (Connection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = method.invoke(target, args);
                    if (method.getName().equals("prepareStatement")) {
                        this.statements.add((String) args[0]);
                        return countingQueries((PreparedStatement) result);
                    }
                    return result;
                });
    }

    private PreparedStatement countingQueries(PreparedStatement target) {
        return (PreparedStatement) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().equals("executeQuery")) {
                        this.queries.incrementAndGet();
                    }
                    return method.invoke(target, args);
                });
    }
}
