package io.dsched.cancel;

import io.dsched.test.TestDatabases;

class PostgresCancelTests extends AbstractCancelTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
