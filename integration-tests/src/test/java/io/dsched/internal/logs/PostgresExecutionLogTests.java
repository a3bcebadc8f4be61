package io.dsched.internal.logs;

import io.dsched.test.TestDatabases;

class PostgresExecutionLogTests extends AbstractExecutionLogTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
