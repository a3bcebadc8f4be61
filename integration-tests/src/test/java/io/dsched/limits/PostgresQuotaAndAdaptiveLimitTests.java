package io.dsched.limits;

import io.dsched.test.TestDatabases;

class PostgresQuotaAndAdaptiveLimitTests extends AbstractQuotaAndAdaptiveLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
