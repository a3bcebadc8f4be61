package io.dsched.limits;

import io.dsched.test.TestDatabases;

class H2ConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
