package io.dsched.internal.health;

import io.dsched.test.TestDatabases;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresHealthTests extends AbstractHealthTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String notices() {
        return "notices";
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:postgresql://127.0.0.1:1/dsched?connectTimeout=2";
    }

    @Override
    protected Map<String, Object> prepareCutOff(JdbcTemplate admin, String login, String password) {
        String schema = admin.queryForObject("SELECT current_schema()", String.class);
        admin.execute("CREATE ROLE " + login + " LOGIN PASSWORD '" + password + "'");
        admin.execute("GRANT ALL ON SCHEMA " + schema + " TO " + login);
        return Map.of("spring.datasource.username", login, "spring.datasource.password", password);
    }

    @Override
    protected void cutOff(JdbcTemplate admin, String login) {
        admin.execute("ALTER ROLE " + login + " NOLOGIN");
        admin.queryForList(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ?", Boolean.class, login);
    }

    @Override
    protected void letIn(JdbcTemplate admin, String login, String password) {
        admin.execute("ALTER ROLE " + login + " LOGIN");
    }

    @Override
    protected void dropNodeLogin(JdbcTemplate admin, String login) {
        // the login may not exist when its creation failed half-way
        Integer roles = admin.queryForObject("SELECT COUNT(*) FROM pg_roles WHERE rolname = ?", Integer.class, login);
        if (roles != null && roles > 0) {
            admin.execute("DROP OWNED BY " + login);
            admin.execute("DROP ROLE " + login);
        }
    }
}
