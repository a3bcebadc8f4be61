package io.dsched.reliability;

import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresDatabaseOutageTests extends AbstractDatabaseOutageTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected Map<String, Object> tagConnections() {
        return Map.of("spring.datasource.hikari.data-source-properties.ApplicationName", APPLICATION);
    }

    @Override
    protected int cutNodeConnections(DataSource admin, TestDatabase database) {
        return new JdbcTemplate(admin)
                .queryForList(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                + " WHERE application_name = ? AND pid <> pg_backend_pid()",
                        Boolean.class,
                        APPLICATION)
                .size();
    }
}
