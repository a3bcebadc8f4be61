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
                "SELECT COALESCE(SUM(trx_rows_locked), 0) FROM information_schema.INNODB_TRX", Long.class);
        return locked;
    }
}
