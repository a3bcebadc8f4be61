package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class PostgresSchemaScriptTests extends AbstractSchemaScriptTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
