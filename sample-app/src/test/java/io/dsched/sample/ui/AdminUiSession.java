package io.dsched.sample.ui;

import io.dsched.sample.SampleServer;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * A browser session against the sample application on one database, which the class starts once
 * and stops at its end; each test signs in with a browser of its own, closed after it, and a failed
 * test leaves a screenshot of what the browser showed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AdminUiSession {

    protected SampleServer server;

    protected Browser browser;

    protected abstract TestDatabases.Kind kind();

    /** Prefix of this class's screenshots. */
    protected abstract String prefix();

    @BeforeAll
    void startServer() {
        this.server = SampleServer.start(kind());
    }

    @AfterAll
    void stopServer() {
        if (this.server != null) {
            this.server.close();
        }
    }

    /** A failed test leaves a screenshot of what the browser showed, before the browser is closed. */
    @RegisterExtension
    final AfterTestExecutionCallback screenshotOfAFailure = (context) -> {
        if (context.getExecutionException().isPresent() && this.browser != null) {
            this.browser.screenshot(
                    prefix() + "failed-" + context.getRequiredTestMethod().getName());
        }
    };

    @AfterEach
    void closeBrowser() {
        if (this.browser != null) {
            this.browser.close();
            this.browser = null;
        }
    }

    protected void signIn(String user) throws Exception {
        this.browser = Browser.open(this.server.base());
        this.browser.signIn(user, this.server.password(user));
    }

    /** Every attempt at the fire of an execution, oldest first, as the endpoint reads them. */
    protected List<JsonNode> attempts(long executionId) {
        return StreamSupport.stream(
                        this.server
                                .read("/executions/" + executionId)
                                .get("attempts")
                                .spliterator(),
                        false)
                .toList();
    }
}
