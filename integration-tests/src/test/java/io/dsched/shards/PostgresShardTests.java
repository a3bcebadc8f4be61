package io.dsched.shards;

import io.dsched.test.TestDatabases;

class PostgresShardTests extends AbstractShardTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
