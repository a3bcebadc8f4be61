package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class PostgresJobRemovalTests extends AbstractJobRemovalTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
