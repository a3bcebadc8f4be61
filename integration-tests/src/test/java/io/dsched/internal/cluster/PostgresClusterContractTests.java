package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class PostgresClusterContractTests extends AbstractClusterContractTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
