package io.dsched.quartz.contract;

import io.dsched.quartz.contract.TestCluster.Store;

/** The contract on MariaDB, with dsched's {@code SkipLockedJobStore}. */
class MariaDbQuartzContractTests extends AbstractQuartzContractTests {

    @Override
    protected TestDatabase.Kind kind() {
        return TestDatabase.Kind.MARIADB;
    }

    @Override
    protected Store store() {
        return Store.SKIP_LOCKED;
    }
}
