package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class PostgresLockTableTests extends AbstractLockTableTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
