package io.dsched.sample.crashlab;

import io.dsched.test.TestDatabases;

class PostgresCrashIT extends AbstractCrashIT {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String profile() {
        return "postgres";
    }
}
