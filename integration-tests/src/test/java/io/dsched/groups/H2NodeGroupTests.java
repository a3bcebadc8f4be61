package io.dsched.groups;

import io.dsched.test.TestDatabases;

class H2NodeGroupTests extends AbstractNodeGroupTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
