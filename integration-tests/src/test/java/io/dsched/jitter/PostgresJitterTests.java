package io.dsched.jitter;

import io.dsched.test.TestDatabases;

class PostgresJitterTests extends AbstractJitterTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
