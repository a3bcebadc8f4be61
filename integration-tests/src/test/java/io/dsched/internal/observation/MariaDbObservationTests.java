package io.dsched.internal.observation;

import io.dsched.test.TestDatabases;

class MariaDbObservationTests extends AbstractObservationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
