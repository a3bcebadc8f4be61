package io.dsched.sample.security;

import io.dsched.test.TestDatabases;

class MariaDbSampleSecurityTests extends AbstractSampleSecurityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
