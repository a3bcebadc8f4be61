package io.dsched.shards;

import io.dsched.test.TestDatabases;

class MariaDbShardTests extends AbstractShardTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
