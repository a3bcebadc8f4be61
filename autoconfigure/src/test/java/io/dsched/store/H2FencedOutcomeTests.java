package io.dsched.store;

import io.dsched.test.TestDatabases;

class H2FencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
