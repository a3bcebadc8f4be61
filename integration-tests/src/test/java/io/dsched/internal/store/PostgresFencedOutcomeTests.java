package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class PostgresFencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
