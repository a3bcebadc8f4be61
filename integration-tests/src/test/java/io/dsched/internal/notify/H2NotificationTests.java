package io.dsched.internal.notify;

import io.dsched.test.TestDatabases;

class H2NotificationTests extends AbstractNotificationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
