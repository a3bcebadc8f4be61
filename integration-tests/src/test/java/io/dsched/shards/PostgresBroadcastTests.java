package io.dsched.shards;

import io.dsched.test.TestDatabases;

class PostgresBroadcastTests extends AbstractBroadcastTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
