package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresHostileRequestTests extends AbstractHostileRequestTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected void refuseTriggerWrites(JdbcTemplate sql, String triggerName) {
        sql.execute("CREATE FUNCTION dsched_test_refuse() RETURNS trigger LANGUAGE plpgsql AS"
                + " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$");
        sql.execute("CREATE TRIGGER dsched_test_refuse BEFORE INSERT ON dsched_qrtz_triggers FOR EACH ROW"
                + " WHEN (NEW.trigger_name = '" + triggerName + "') EXECUTE FUNCTION dsched_test_refuse()");
    }

    @Override
    protected void allowTriggerWrites(JdbcTemplate sql) {
        sql.execute("DROP TRIGGER dsched_test_refuse ON dsched_qrtz_triggers");
        sql.execute("DROP FUNCTION dsched_test_refuse()");
    }
}
