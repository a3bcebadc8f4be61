package io.dsched.sample.ui;

import io.dsched.test.TestDatabases;

class PostgresAdminUiTests extends AbstractAdminUiTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String prefix() {
        return "postgres-";
    }
}
