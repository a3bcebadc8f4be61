package io.dsched.shards;

import io.dsched.test.TestDatabases;

class H2ShardTests extends AbstractShardTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
