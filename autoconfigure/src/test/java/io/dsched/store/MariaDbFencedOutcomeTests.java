package io.dsched.store;

import io.dsched.test.TestDatabases;

class MariaDbFencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
