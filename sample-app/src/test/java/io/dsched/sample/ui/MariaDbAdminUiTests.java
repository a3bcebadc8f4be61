package io.dsched.sample.ui;

import io.dsched.test.TestDatabases;

class MariaDbAdminUiTests extends AbstractAdminUiTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected String prefix() {
        return "mariadb-";
    }
}
