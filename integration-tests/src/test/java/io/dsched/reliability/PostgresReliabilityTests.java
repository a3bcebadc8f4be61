package io.dsched.reliability;

import io.dsched.test.TestDatabases;

/** The suite as a cluster named billing, on tables of its own. */
class PostgresReliabilityTests extends AbstractReliabilityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String clusterName() {
        return "billing";
    }
}
