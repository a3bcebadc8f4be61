package io.dsched.internal.history;

import io.dsched.test.TestDatabases;

class H2HousekeepingTests extends AbstractHousekeepingTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
