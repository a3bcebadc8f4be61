package io.dsched.jitter;

import io.dsched.test.TestDatabases;

class H2JitterTests extends AbstractJitterTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
