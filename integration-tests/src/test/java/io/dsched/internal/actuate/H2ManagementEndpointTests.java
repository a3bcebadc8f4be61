package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;

class H2ManagementEndpointTests extends AbstractManagementEndpointTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
