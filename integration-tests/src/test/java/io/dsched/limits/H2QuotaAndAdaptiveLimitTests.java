package io.dsched.limits;

import io.dsched.test.TestDatabases;

class H2QuotaAndAdaptiveLimitTests extends AbstractQuotaAndAdaptiveLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
