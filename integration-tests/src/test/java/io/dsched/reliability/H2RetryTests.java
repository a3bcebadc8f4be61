package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class H2RetryTests extends AbstractRetryTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
