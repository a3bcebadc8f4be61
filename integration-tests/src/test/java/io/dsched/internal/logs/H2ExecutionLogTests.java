package io.dsched.internal.logs;

import io.dsched.test.TestDatabases;

class H2ExecutionLogTests extends AbstractExecutionLogTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
