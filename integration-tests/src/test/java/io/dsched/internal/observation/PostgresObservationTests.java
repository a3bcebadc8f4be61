package io.dsched.internal.observation;

import io.dsched.test.TestDatabases;

class PostgresObservationTests extends AbstractObservationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
