package io.dsched.internal.health;

import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbHealthTests extends AbstractHealthTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:mariadb://127.0.0.1:1/dsched?connectTimeout=2000";
    }

    @Override
    protected Map<String, Object> prepareCutOff(JdbcTemplate admin, String login, String password) {
        String name = admin.queryForObject("SELECT DATABASE()", String.class);
        admin.execute("CREATE USER '" + login + "'@'%' IDENTIFIED BY '" + password + "'");
        admin.execute("GRANT ALL ON `" + name + "`.* TO '" + login + "'@'%'");
        return Map.of("spring.datasource.username", login, "spring.datasource.password", password);
    }

    @Override
    protected void cutOff(JdbcTemplate admin, String login) {
        admin.execute("ALTER USER '" + login + "'@'%' ACCOUNT LOCK");
        List<Long> connections =
                admin.queryForList("SELECT id FROM information_schema.PROCESSLIST WHERE user = ?", Long.class, login);
        for (long id : connections) {
            try {
                admin.execute("KILL CONNECTION " + id);
            } catch (RuntimeException ex) {
                // the connection ended meanwhile
            }
        }
    }

    @Override
    protected void letIn(JdbcTemplate admin, String login, String password) {
        admin.execute("ALTER USER '" + login + "'@'%' ACCOUNT UNLOCK");
    }

    @Override
    protected void dropNodeLogin(JdbcTemplate admin, String login) {
        admin.execute("DROP USER IF EXISTS '" + login + "'@'%'");
    }
}
