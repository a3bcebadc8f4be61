package io.dsched.limits;

import io.dsched.test.TestDatabases;

class PostgresConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
