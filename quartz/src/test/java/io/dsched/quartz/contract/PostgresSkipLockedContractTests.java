package io.dsched.quartz.contract;

/** What the skip-locked store adds to Quartz's contract, on PostgreSQL. */
class PostgresSkipLockedContractTests extends AbstractSkipLockedContractTests {

    @Override
    protected TestDatabase.Kind kind() {
        return TestDatabase.Kind.POSTGRES;
    }
}
