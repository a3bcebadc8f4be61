package io.dsched.cancel;

import io.dsched.test.TestDatabases;

class H2CancelTests extends AbstractCancelTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
