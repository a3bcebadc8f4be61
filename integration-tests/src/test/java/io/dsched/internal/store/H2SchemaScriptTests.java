package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class H2SchemaScriptTests extends AbstractSchemaScriptTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
