package io.dsched.reliability;

import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

class PostgresDatabaseOutageTests extends AbstractDatabaseOutageTests {

    /**
     * The application name this test's nodes carry: its own, so that a test of another build on
     * the same server, which cuts its nodes by their name too, does not cut these.
     */
    private final String application =
            APPLICATION + "-" + UUID.randomUUID().toString().substring(0, 8);

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected Map<String, Object> tagConnections() {
        return Map.of("spring.datasource.hikari.data-source-properties.ApplicationName", this.application);
    }

    @Override
    protected int cutNodeConnections(DataSource admin, TestDatabase database) {
        return new JdbcTemplate(admin)
                .queryForList(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                + " WHERE application_name = ? AND pid <> pg_backend_pid()",
                        Boolean.class,
                        this.application)
                .size();
    }
}
