package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import org.h2.api.Trigger;
import org.springframework.jdbc.core.JdbcTemplate;

class H2HostileRequestTests extends AbstractHostileRequestTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    @Override
    protected void refuseTriggerWrites(JdbcTemplate sql, String triggerName) {
        RefusingTrigger.name = triggerName;
        sql.execute("CREATE TRIGGER dsched_test_refuse BEFORE INSERT ON DSCHED_QRTZ_TRIGGERS FOR EACH ROW CALL '"
                + RefusingTrigger.class.getName() + "'");
    }

    @Override
    protected void allowTriggerWrites(JdbcTemplate sql) {
        sql.execute("DROP TRIGGER dsched_test_refuse");
    }

    /** Refuses the insert of one trigger's row; H2 runs it in the database's own JVM, this one. */
    public static class RefusingTrigger implements Trigger {

        static volatile String name;

        @Override
        public void fire(Connection connection, Object[] oldRow, Object[] newRow) throws SQLException {
            // SCHED_NAME, TRIGGER_NAME, ...
            if (newRow != null && name != null && name.equals(newRow[1])) {
                throw new SQLException("refused by the test");
            }
        }
    }
}
