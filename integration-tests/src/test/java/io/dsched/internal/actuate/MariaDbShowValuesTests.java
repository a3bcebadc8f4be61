package io.dsched.internal.actuate;

import io.dsched.test.TestDatabases;

class MariaDbShowValuesTests extends AbstractShowValuesTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
