package io.dsched.quartz.contract;

import io.dsched.quartz.contract.TestCluster.Store;

/** The contract on PostgreSQL, with dsched's {@code SkipLockedJobStore}. */
class PostgresQuartzContractTests extends AbstractQuartzContractTests {

    @Override
    protected TestDatabase.Kind kind() {
        return TestDatabase.Kind.POSTGRES;
    }

    @Override
    protected Store store() {
        return Store.SKIP_LOCKED;
    }
}
