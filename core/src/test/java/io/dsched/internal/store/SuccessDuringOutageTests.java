package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The write of a success waits out a database that cuts its connections, as PostgreSQL does to
 * every session when it is restarted: the statement fails with 57P01, and the rollback after it
 * with whatever the driver says of a closed connection, here with no SQL state at all. Spring's
 * transaction template then throws the failed rollback, with the write's own failure attached.
 */
class SuccessDuringOutageTests {

    /** How many statements fail before the database answers again. */
    private static final int CUT = 3;

    private final InMemoryStore database = new InMemoryStore();

    private final AtomicInteger cutsLeft = new AtomicInteger();

    private final DataSource cutting = cutting(this.database.dataSource());

    private final ExecutionStore store = new ExecutionStore(
            this.database.executions(),
            new DschedRepositories(this.database.dataSource(), DatabasePlatform.H2).deadLetters(),
            new TransactionTemplate(new DataSourceTransactionManager(this.cutting)),
            this.cutting,
            DatabasePlatform.H2,
            ClusterTables.DEFAULT,
            false);

    @AfterEach
    void close() {
        this.store.close();
        this.database.store().close();
    }

    @Test
    void aSuccessWrittenWhileTheServerCutsEveryConnectionIsWrittenOnceItAnswersAgain() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ExecutionRecord claim = this.database.executions().save(ExecutionRecord.claim("beat", now, "node-1", now));
        this.cutsLeft.set(CUT);

        CompletableFuture<Void> written = this.store.outcomes().succeed(claim, now, now.plusMillis(5), null);

        written.get(30, TimeUnit.SECONDS);
        assertThat(this.cutsLeft).as("every cut was met").hasValue(0);
        assertThat(this.database.executions().findById(claim.id()).orElseThrow().status())
                .isEqualTo(ExecutionStatus.SUCCEEDED);
    }

    /** A DataSource whose next statements fail as a cut connection's do, and their rollbacks too. */
    private DataSource cutting(DataSource target) {
        Set<String> statements = Set.of("prepareStatement", "createStatement", "prepareCall");
        return proxy(DataSource.class, (proxy, method, args) -> {
            Object result = invoke(target, method, args);
            if (!method.getName().equals("getConnection")) {
                return result;
            }
            Connection connection = (Connection) result;
            boolean[] cut = {false};
            return proxy(Connection.class, (inner, call, values) -> {
                if (statements.contains(call.getName())
                        && this.cutsLeft.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
                    cut[0] = true;
                    throw new SQLException("FATAL: terminating connection due to administrator command", "57P01");
                }
                if (call.getName().equals("rollback") && cut[0]) {
                    throw new SQLException("Connection is closed");
                }
                return invoke(connection, call, values);
            });
        });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException ex) {
            throw ex.getCause();
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
