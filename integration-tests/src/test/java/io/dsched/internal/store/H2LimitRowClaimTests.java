package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class H2LimitRowClaimTests extends AbstractLimitRowClaimTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
