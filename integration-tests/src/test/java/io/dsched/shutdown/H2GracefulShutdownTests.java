package io.dsched.shutdown;

import io.dsched.test.TestDatabases;

class H2GracefulShutdownTests extends AbstractGracefulShutdownTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
