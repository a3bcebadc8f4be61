package io.dsched.internal.store;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresSkipLockedClaimTests extends AbstractSkipLockedClaimTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected long rowsLockedByOpenTransactions(JdbcTemplate sql) {
        sql.execute("CREATE EXTENSION IF NOT EXISTS pgrowlocks");
        Long locked = sql.queryForObject("SELECT COUNT(*) FROM pgrowlocks('dsched_execution')", Long.class);
        return locked;
    }
}
