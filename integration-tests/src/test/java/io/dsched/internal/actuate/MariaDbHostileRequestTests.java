package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbHostileRequestTests extends AbstractHostileRequestTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected void refuseTriggerWrites(JdbcTemplate sql, String triggerName) {
        sql.execute("CREATE TRIGGER dsched_test_refuse BEFORE INSERT ON DSCHED_QRTZ_TRIGGERS FOR EACH ROW"
                + " BEGIN IF NEW.TRIGGER_NAME = '" + triggerName + "' THEN"
                + " SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END");
    }

    @Override
    protected void allowTriggerWrites(JdbcTemplate sql) {
        sql.execute("DROP TRIGGER dsched_test_refuse");
    }
}
