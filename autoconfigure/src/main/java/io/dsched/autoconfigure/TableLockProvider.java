package io.dsched.autoconfigure;

import io.dsched.internal.engine.NodeId;
import io.dsched.internal.store.LockTable;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;

/**
 * dsched's own lock provider, on its lock table: the guard then writes that table itself, and
 * housekeeping may delete the rows of removed jobs, which the provider creates again.
 */
final class TableLockProvider extends JdbcTemplateLockProvider {

    private TableLockProvider(JdbcTemplateLockProvider.Configuration configuration) {
        super(configuration);
    }

    /**
     * Creates a provider on the lock table of dsched's database.
     * @param jdbc dsched's database and its tables
     * @param nodeId the node that takes the locks
     * @return the provider
     */
    static TableLockProvider of(DschedJdbc jdbc, NodeId nodeId) {
        return new TableLockProvider(
                LockTable.configuration(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), nodeId.value()));
    }
}
