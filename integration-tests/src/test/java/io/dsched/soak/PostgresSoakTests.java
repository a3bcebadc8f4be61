package io.dsched.soak;

import io.dsched.test.TestDatabases;

class PostgresSoakTests extends AbstractSoakTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
