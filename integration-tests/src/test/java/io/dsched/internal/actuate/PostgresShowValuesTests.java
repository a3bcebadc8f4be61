package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;

class PostgresShowValuesTests extends AbstractShowValuesTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
