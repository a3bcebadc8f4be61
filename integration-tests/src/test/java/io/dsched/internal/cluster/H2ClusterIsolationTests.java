package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class H2ClusterIsolationTests extends AbstractClusterIsolationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
