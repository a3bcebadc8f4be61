package io.dsched.shutdown;

import io.dsched.test.TestDatabases;

class PostgresGracefulShutdownTests extends AbstractGracefulShutdownTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
