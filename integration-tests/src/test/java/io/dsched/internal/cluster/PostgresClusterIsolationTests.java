package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class PostgresClusterIsolationTests extends AbstractClusterIsolationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
