package io.dsched.reliability;

import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

class MariaDbDatabaseOutageTests extends AbstractDatabaseOutageTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected Map<String, Object> tagConnections() {
        return Map.of();
    }

    @Override
    protected int cutNodeConnections(DataSource admin, TestDatabase database) {
        JdbcTemplate sql = new JdbcTemplate(admin);
        // each test has a database of its own: every other connection to it is a node's
        List<Long> connections = sql.queryForList(
                "SELECT id FROM information_schema.PROCESSLIST WHERE db = DATABASE() AND id <> CONNECTION_ID()",
                Long.class);
        int cut = 0;
        for (long id : connections) {
            try {
                sql.execute("KILL CONNECTION " + id);
                cut++;
            } catch (RuntimeException ex) {
                // the connection ended meanwhile
            }
        }
        return cut;
    }
}
