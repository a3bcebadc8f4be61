package io.dsched.shards;

import io.dsched.test.TestDatabases;

class MariaDbBroadcastTests extends AbstractBroadcastTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
