package io.dsched.internal.notify;

import io.dsched.test.TestDatabases;

class MariaDbNotificationTests extends AbstractNotificationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
