package io.dsched.health;

import io.dsched.test.TestDatabases;

class H2HealthTests extends AbstractHealthTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:h2:tcp://127.0.0.1:1/dsched";
    }
}
