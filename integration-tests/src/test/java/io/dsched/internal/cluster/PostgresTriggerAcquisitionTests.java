package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresTriggerAcquisitionTests extends AbstractTriggerAcquisitionTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected int sessionsWaitingForALock(JdbcTemplate jdbc) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND datname = current_database()",
                Integer.class);
    }
}
