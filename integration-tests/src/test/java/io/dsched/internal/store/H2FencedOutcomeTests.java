package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class H2FencedOutcomeTests extends AbstractFencedOutcomeTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
