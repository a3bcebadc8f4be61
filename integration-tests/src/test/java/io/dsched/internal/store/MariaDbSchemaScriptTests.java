package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class MariaDbSchemaScriptTests extends AbstractSchemaScriptTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
