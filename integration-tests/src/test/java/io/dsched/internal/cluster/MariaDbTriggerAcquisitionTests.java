package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbTriggerAcquisitionTests extends AbstractTriggerAcquisitionTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected int sessionsWaitingForALock(JdbcTemplate jdbc) {
        return jdbc.queryForObject(
                // this test's database only: the suites of other test JVMs share the server
                "SELECT count(*) FROM information_schema.INNODB_TRX t"
                        + " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
                        + " WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()",
                Integer.class);
    }
}
