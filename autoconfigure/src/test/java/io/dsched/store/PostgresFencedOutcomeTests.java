package io.dsched.store;

import io.dsched.test.TestDatabases;

class PostgresFencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
