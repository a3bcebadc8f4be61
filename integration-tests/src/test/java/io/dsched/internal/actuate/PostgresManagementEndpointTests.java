package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;

class PostgresManagementEndpointTests extends AbstractManagementEndpointTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
