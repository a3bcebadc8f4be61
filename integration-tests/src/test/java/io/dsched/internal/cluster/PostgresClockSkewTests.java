package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class PostgresClockSkewTests extends AbstractClockSkewTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
