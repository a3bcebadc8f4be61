package io.dsched.sample.security;

import io.dsched.test.TestDatabases;

class H2SampleSecurityTests extends AbstractSampleSecurityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
