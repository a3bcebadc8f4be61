package io.dsched.sample.crashlab;

import io.dsched.test.TestDatabases;

class MariaDbCrashIT extends AbstractCrashIT {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected String profile() {
        return "mariadb";
    }
}
