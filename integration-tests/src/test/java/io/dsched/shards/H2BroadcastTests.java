package io.dsched.shards;

import io.dsched.test.TestDatabases;

class H2BroadcastTests extends AbstractBroadcastTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
