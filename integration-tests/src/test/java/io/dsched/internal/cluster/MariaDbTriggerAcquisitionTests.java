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
                "SELECT count(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'", Integer.class);
    }
}
