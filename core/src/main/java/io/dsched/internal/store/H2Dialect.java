package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.sql.Connection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.provider.sql.DatabaseProduct;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;

/**
 * H2 2.x, for local development and tests: no {@code SKIP LOCKED} in dsched's use, no insert that
 * passes over a duplicate without failing the transaction, no lock across connections.
 */
final class H2Dialect extends SqlDialect {

    @Override
    public String lockClockSql() {
        return "CURRENT_TIMESTAMP(3)";
    }

    @Override
    public boolean skipsLocked() {
        return false;
    }

    @Override
    public boolean insertsPassOverConflicts() {
        return false;
    }

    @Override
    public DatabaseProduct shedLockProduct() {
        return DatabaseProduct.H2;
    }

    @Override
    public String quartzDelegate(boolean skipLocked) {
        return StdJDBCDelegate.class.getName();
    }

    @Override
    public Optional<SessionLock> schemaLock() {
        return Optional.empty();
    }

    @Override
    String traceUpsert() {
        return """
                MERGE INTO dsched_execution_trace (idempotency_key, carrier, created_at)
                KEY (idempotency_key) VALUES (?, ?, ?)
                """;
    }

    /** Claims none: each fire is claimed by its worker, with a commit of its own. */
    @Override
    Map<String, ExecutionRecord> claimOn(ExecutionRows rows, Connection connection, List<ExecutionRecord> claims) {
        return new HashMap<>();
    }
}
