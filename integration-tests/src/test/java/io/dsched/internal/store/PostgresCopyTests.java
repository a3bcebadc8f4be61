package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.quartz.StartBacklog;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * On PostgreSQL a large batch of new attempts is loaded by {@code COPY} with ids taken from the
 * table's sequence, and a small one inserted from arrays; a role that may write the tables but not
 * take the sequence's values, as an insert needs none, has its large batches inserted too.
 */
class PostgresCopyTests {

    private TestDatabase database;

    private HikariDataSource dataSource;

    private final List<String> statements = new CopyOnWriteArrayList<>();

    @BeforeEach
    void createDatabase() {
        this.database = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
        this.dataSource = this.database.newDataSource();
        createTables(ClusterTables.DEFAULT);
    }

    @AfterEach
    void dropDatabase() {
        this.dataSource.close();
        this.database.close();
    }

    @ParameterizedTest(name = "cluster {0}")
    @ValueSource(strings = {ClusterTables.DEFAULT_CLUSTER, "billing"})
    void aBatchOf100OrMoreIsLoadedByCopyAndASmallerOneInsertedFromArrays(String cluster) {
        ClusterTables tables = ClusterTables.of(cluster);
        createTables(tables);
        ExecutionStore store = store(recording(this.dataSource), tables);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        List<ExecutionRecord> large = store.inserts().insertAll(attempts("large", PostgresDialect.COPY_FROM, now));
        List<String> largeStatements = List.copyOf(this.statements);
        this.statements.clear();
        List<ExecutionRecord> small = store.inserts().insertAll(attempts("small", PostgresDialect.COPY_FROM - 1, now));

        assertThat(largeStatements).anyMatch(PostgresCopyTests::takesIds).noneMatch(PostgresCopyTests::insertsArrays);
        assertThat(this.statements).anyMatch(PostgresCopyTests::insertsArrays).noneMatch(PostgresCopyTests::takesIds);
        assertStored(store, large);
        assertStored(store, small);
        assertThat(small.get(0).id()).isGreaterThan(large.get(large.size() - 1).id());
    }

    /**
     * Characters outside the BMP, two chars in Java, anywhere in a batch of several megabytes:
     * encoded in pieces of a fixed length, one would be cut in two.
     */
    @Test
    void charactersOutsideTheBasicPlaneReadBackAsWritten() {
        ExecutionStore store = store(this.dataSource, ClusterTables.DEFAULT);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<ExecutionRecord> batch = new ArrayList<>();
        for (int i = 0; i < PostgresDialect.COPY_FROM; i++) {
            batch.add(attempt("wide-" + i, now, "\"" + "x".repeat(i % 3) + "\uD83D\uDDD3".repeat(20_000) + "\""));
        }

        assertStored(store, store.inserts().insertAll(batch));
    }

    @Test
    void aRoleThatMayNotTakeTheSequencesValuesHasItsLargeBatchInsertedFromArrays() {
        assertInsertedFromArraysBy(List.of());
    }

    /** {@code COPY} writes {@code id}, which an insert leaves to the table. */
    @Test
    void aRoleThatMayInsertEveryColumnButTheIdHasItsLargeBatchInsertedFromArrays() {
        assertInsertedFromArraysBy(List.of(
                "GRANT USAGE ON ALL SEQUENCES IN SCHEMA %s TO %s",
                "REVOKE INSERT ON dsched_execution FROM %2$s",
                "GRANT INSERT (job_name, scheduled_at, attempt, idempotency_key, status, node_id, started_at,"
                        + " finished_at, error_class, error_message, status_reason, origin, due_at, payload, priority,"
                        + " limit_key)"
                        + " ON dsched_execution TO %2$s"));
    }

    /** {@code COPY FROM} is refused to a session that row-level security applies to. */
    @Test
    void aRoleThatRowLevelSecurityAppliesToHasItsLargeBatchInsertedFromArrays() {
        assertInsertedFromArraysBy(List.of(
                "GRANT USAGE ON ALL SEQUENCES IN SCHEMA %s TO %s",
                "ALTER TABLE dsched_execution ENABLE ROW LEVEL SECURITY",
                "CREATE POLICY dsched_all ON dsched_execution TO %2$s USING (true) WITH CHECK (true)"));
    }

    /** A role of {@link #asWriter} has a batch large enough for {@code COPY} inserted from arrays. */
    private void assertInsertedFromArraysBy(List<String> statements) {
        asWriter(statements, (writer) -> {
            List<ExecutionRecord> saved = store(recording(writer), ClusterTables.DEFAULT)
                    .inserts()
                    .insertAll(attempts(
                            "writer",
                            PostgresDialect.COPY_FROM + 50,
                            Instant.now().truncatedTo(ChronoUnit.MILLIS)));

            assertThat(this.statements).anyMatch(PostgresCopyTests::insertsArrays);
            assertStored(store(this.dataSource, ClusterTables.DEFAULT), saved);
        });
    }

    /**
     * Runs work on a pool of a role of its own that may read and write the tables of the schema
     * and, given the statements (formatted with the schema and the role), whatever they grant.
     */
    private void asWriter(List<String> statements, Consumer<DataSource> work) {
        String role =
                "dsched_writer_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String password = UUID.randomUUID().toString();
        JdbcTemplate admin = new JdbcTemplate(this.dataSource);
        String schema = admin.queryForObject("SELECT current_schema()", String.class);
        admin.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password + "'");
        try {
            admin.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
            admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
            for (String statement : statements) {
                admin.execute(String.format(statement, schema, role));
            }
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(this.database.url());
            config.setUsername(role);
            config.setPassword(password);
            config.setMaximumPoolSize(2);
            try (HikariDataSource writer = new HikariDataSource(config)) {
                work.accept(writer);
            }
        } finally {
            admin.execute("DROP OWNED BY " + role);
            admin.execute("DROP ROLE " + role);
        }
    }

    private static boolean takesIds(String sql) {
        return sql.contains("nextval");
    }

    private static boolean insertsArrays(String sql) {
        return sql.contains("unnest");
    }

    private static List<ExecutionRecord> attempts(String prefix, int count, Instant now) {
        List<ExecutionRecord> attempts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            attempts.add(attempt(prefix + "-" + i, now, "{\"n\":" + i + "}"));
        }
        return attempts;
    }

    private static ExecutionRecord attempt(String key, Instant now, String payload) {
        return ExecutionRecord.waiting(
                "remind", now, 1, "remind:" + key, ExecutionOrigin.ONE_OFF, "node-1", now, now, payload, null);
    }

    private static void assertStored(ExecutionStore store, List<ExecutionRecord> saved) {
        assertThat(saved.stream().map(ExecutionRecord::id).toList())
                .doesNotHaveDuplicates()
                .isSorted();
        for (ExecutionRecord row : saved) {
            assertThat(store.repository().findById(row.id())).contains(row);
        }
    }

    private void createTables(ClusterTables tables) {
        new DschedSchemaInitializer(
                        new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource), tables),
                        DatabaseInitializationMode.ALWAYS)
                .initializeDatabase();
    }

    private static ExecutionStore store(DataSource dataSource, ClusterTables tables) {
        DschedJdbc jdbc = new DschedJdbc(dataSource, DatabasePlatform.detect(dataSource), tables);
        DschedRepositories repositories = new DschedRepositories(dataSource, jdbc.platform(), tables);
        return new ExecutionStore(
                repositories.executions(),
                repositories.deadLetters(),
                jdbc.transactions(),
                dataSource,
                jdbc.platform(),
                tables,
                true,
                StartBacklog.NONE);
    }

    /** The DataSource with every statement its connections prepare written down. */
    private DataSource recording(DataSource target) {
        return (DataSource) intercepted(target, (getConnection) -> {
            Object connection = getConnection.proceed();
            if (!getConnection.getMethod().getName().equals("getConnection")) {
                return connection;
            }
            return intercepted(connection, (call) -> {
                if (call.getMethod().getName().startsWith("prepare")
                        && call.getArguments().length > 0
                        && call.getArguments()[0] instanceof String sql) {
                    this.statements.add(sql);
                }
                return call.proceed();
            });
        });
    }

    private static Object intercepted(Object target, MethodInterceptor interceptor) {
        ProxyFactory proxies = new ProxyFactory(target);
        proxies.addAdvice(interceptor);
        return proxies.getProxy();
    }
}
