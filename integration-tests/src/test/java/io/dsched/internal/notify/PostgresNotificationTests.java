package io.dsched.internal.notify;

import io.dsched.test.TestDatabases;

class PostgresNotificationTests extends AbstractNotificationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
