package io.dsched.sample.security;

import io.dsched.test.TestDatabases;

class PostgresSampleSecurityTests extends AbstractSampleSecurityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
