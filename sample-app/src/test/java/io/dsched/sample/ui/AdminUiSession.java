package io.dsched.sample.ui;

import io.dsched.sample.SampleServer;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * A browser session against the sample application on one database, which the class starts once
 * and stops at its end. The class opens one browser, at its first sign-in, and closes it at its end:
 * each sign-in starts it afresh, as a new browser (signed out, nothing kept, nothing in the console
 * of what came before), or opens another when it no longer answers. A test that fails once it has
 * signed in leaves a screenshot of what the browser showed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AdminUiSession {

    private static final Logger logger = LoggerFactory.getLogger(AdminUiSession.class);

    protected SampleServer server;

    /** The class's browser, once a test signed in. */
    protected Browser browser;

    protected abstract TestDatabases.Kind kind();

    /** Prefix of this class's screenshots. */
    protected abstract String prefix();

    @BeforeAll
    void startServer() {
        // the sharded job fires every 2 s, so that its page has fires to show
        this.server = SampleServer.start(kind(), Map.of("sample.reconcile.cron", "*/2 * * * * *"));
    }

    @AfterAll
    void stopBrowserAndServer() {
        try {
            closeBrowser();
        } finally {
            if (this.server != null) {
                this.server.close();
            }
        }
    }

    /** Whether the running test signed in: before, the browser still shows an earlier test's page. */
    private boolean signedIn;

    @BeforeEach
    void notSignedInYet() {
        this.signedIn = false;
    }

    /** A failed test leaves a screenshot of what the browser showed, before the next test cleans it. */
    @RegisterExtension
    final AfterTestExecutionCallback screenshotOfAFailure = (context) -> {
        if (context.getExecutionException().isPresent() && this.signedIn && this.browser != null) {
            this.browser.screenshot(
                    prefix() + "failed-" + context.getRequiredTestMethod().getName());
        }
    };

    /**
     * Signs in with the class's browser started afresh, as a new one would be: the first sign-in
     * opens it, and a sign-in after a test that left it unusable (crashed, hung or closed) opens
     * another.
     */
    protected void signIn(String user) throws Exception {
        signIn(user, "");
    }

    /**
     * Signs in as {@link #signIn(String)} does, having followed a link into the UI first.
     * @param user the user
     * @param route the UI's page the link leads to, after its {@code #}
     */
    protected void signIn(String user, String route) throws Exception {
        if (this.browser != null) {
            try {
                this.browser.startAfresh();
            } catch (RuntimeException ex) {
                logger.warn("The browser is unusable, opening another: {}", ex.toString());
                closeBrowser();
            }
        }
        if (this.browser == null) {
            this.browser = Browser.open(this.server.base());
        }
        this.signedIn = true;
        this.browser.signIn(user, this.server.password(user), route);
    }

    private void closeBrowser() {
        if (this.browser != null) {
            Browser closing = this.browser;
            this.browser = null;
            try {
                closing.close();
            } catch (RuntimeException ex) {
                // a browser that crashed may not quit as asked: its profile is gone all the same
                logger.warn("The browser did not close cleanly: {}", ex.toString());
            }
        }
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
