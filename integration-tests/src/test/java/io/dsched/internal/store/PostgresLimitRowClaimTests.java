package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class PostgresLimitRowClaimTests extends AbstractLimitRowClaimTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
