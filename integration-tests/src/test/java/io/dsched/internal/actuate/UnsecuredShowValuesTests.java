package io.dsched.internal.actuate;

import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;

/**
 * {@code dsched.management.show-values} without Spring Security, where anyone who reaches the
 * endpoint reads it: no one is authorized, so values are masked unless the setting is
 * {@code always}; and a write offered to anonymous callers answers with its values masked too.
 */
class UnsecuredShowValuesTests {

    // a database of its own for each test, its nodes stopped and the database dropped after it
    @AutoClose
    private final TestCluster cluster = TestCluster.on(TestDatabases.Kind.H2);

    @Test
    void anonymousCallersSeeValuesOnlyWhenTheSettingIsAlways() {
        EndpointClient never = new EndpointClient(start("never", false).port());
        EndpointClient whenAuthorized =
                new EndpointClient(start("when-authorized", true).port());
        ClusterNode alwaysNode = start("always", false);
        EndpointClient always = new EndpointClient(alwaysNode.port());
        ValuesFixture values = ValuesFixture.on(this.cluster, alwaysNode, null, List.of(never, whenAuthorized, always));

        ValuesFixture.assertWriteAnswer(
                whenAuthorized.post("/jobs/billing/params", null, ValuesFixture.paramsWrite()), false);
        values.assertSeenBy(never, null, false);
        values.assertSeenBy(whenAuthorized, null, false);
        values.assertSeenBy(always, null, true);
    }

    private ClusterNode start(String showValues, boolean writes) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("management.endpoints.web.exposure.include", "dsched");
        properties.put("dsched.queue.poll-interval", "100ms");
        properties.put("dsched.history.cleanup-cron", ManagementApp.NEVER);
        properties.put("dsched.management.show-values", showValues);
        properties.put("dsched.management.unsecured-writes", String.valueOf(writes));
        return this.cluster.startWeb(
                showValues,
                ShowValuesApp.Unsecured.class,
                properties,
                new FilteredClassLoader("org.springframework.security"));
    }
}
