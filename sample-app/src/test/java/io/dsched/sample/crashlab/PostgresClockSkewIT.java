package io.dsched.sample.crashlab;

import io.dsched.test.TestDatabases;

class PostgresClockSkewIT extends AbstractClockSkewIT {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String profile() {
        return "postgres";
    }
}
