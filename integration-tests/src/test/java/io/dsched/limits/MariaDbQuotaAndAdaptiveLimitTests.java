package io.dsched.limits;

import io.dsched.test.TestDatabases;

class MariaDbQuotaAndAdaptiveLimitTests extends AbstractQuotaAndAdaptiveLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
