package io.dsched.internal.store;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbSkipLockedClaimTests extends AbstractSkipLockedClaimTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected long rowsLockedByOpenTransactions(JdbcTemplate sql) {
        Long locked = sql.queryForObject(
                // this test's database only: the suites of other test JVMs share the server
                "SELECT COALESCE(SUM(t.trx_rows_locked), 0) FROM information_schema.INNODB_TRX t"
                        + " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
                        + " WHERE p.DB = DATABASE()",
                Long.class);
        return locked;
    }
}
