package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class MariaDbFencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
