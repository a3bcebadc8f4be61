package io.dsched.internal.health;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.h2.api.ErrorCode;
import org.springframework.jdbc.core.JdbcTemplate;

class H2HealthTests extends AbstractHealthTests {

    private Connection exclusive;

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:h2:tcp://127.0.0.1:1/dsched";
    }

    // H2 cannot lock a login out: exclusive mode cuts off every connection but the test's own
    @Override
    protected Map<String, Object> prepareCutOff(JdbcTemplate admin, String login, String password) {
        return Map.of("spring.datasource.hikari.exception-override-class-name", EvictClosedSessions.class.getName());
    }

    @Override
    protected void cutOff(JdbcTemplate admin, String login) {
        try {
            this.exclusive = admin.getDataSource().getConnection();
            // closes every other connection and refuses new ones until the mode is switched off
            execute(this.exclusive, "SET EXCLUSIVE 2");
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    protected void letIn(JdbcTemplate admin, String login, String password) {
        try (Connection connection = this.exclusive) {
            execute(connection, "SET EXCLUSIVE 0");
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    // there is no login to drop; a test that failed while the node was cut off lets it in again
    @Override
    protected void dropNodeLogin(JdbcTemplate admin, String login) {
        try {
            if (this.exclusive != null && !this.exclusive.isClosed()) {
                letIn(admin, login, null);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Has Hikari drop a connection whose session H2 closed, as it drops one a server database ended:
     * by its SQL state alone Hikari would keep handing it out until it idled long enough to be
     * validated, which under a node's steady queries took up to 20 s.
     */
    public static class EvictClosedSessions implements SQLExceptionOverride {

        @java.lang.Override
        public Override adjudicate(SQLException ex) {
            // what H2 answers on a connection whose session it closed
            return (ex.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN)
                    ? Override.MUST_EVICT
                    : Override.CONTINUE_EVICT;
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
