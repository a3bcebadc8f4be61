package io.dsched.store;

import io.dsched.test.TestDatabases;

class PostgresSchemaScriptTests extends AbstractSchemaScriptTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
