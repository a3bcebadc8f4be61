package io.dsched.internal.observation;

import io.dsched.test.TestDatabases;

class H2ObservationTests extends AbstractObservationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
