package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;

class H2ShowValuesTests extends AbstractShowValuesTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
