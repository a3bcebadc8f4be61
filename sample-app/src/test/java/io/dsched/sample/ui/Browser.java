package io.dsched.sample.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.test.Prerequisites;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.util.FileSystemUtils;

/**
 * A headless Chromium driven by ChromeDriver, both from the machine (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code DSCHED_CHROMIUM} and {@code DSCHED_CHROMEDRIVER} point elsewhere).
 * Nothing is downloaded: the driver's path is given, so Selenium Manager is not asked. Without
 * them, the test is skipped with the reason.
 */
final class Browser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

    private static final Duration WAIT = Duration.ofSeconds(20);

    /** How long a page that is left may take to go, before the browser is deemed unusable. */
    private static final Duration LEAVING = Duration.ofSeconds(10);

    private static final int WIDTH = 1280;

    private static final int HEIGHT = 800;

    private final ChromeDriver driver;

    private final Path profile;

    private final String base;

    /** The window as it opened, which {@link #startAfresh} gives back to a test that changed it. */
    private final Dimension window;

    private boolean closed;

    private Browser(String base) throws IOException {
        String chromium = location("DSCHED_CHROMIUM", "/usr/bin/chromium");
        String chromedriver = location("DSCHED_CHROMEDRIVER", "/usr/bin/chromedriver");
        this.profile = Files.createTempDirectory("dsched-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=" + WIDTH + "," + HEIGHT,
                "--user-data-dir=" + this.profile.toAbsolutePath());
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(chromedriver))
                .usingAnyFreePort()
                .build();
        this.driver = new ChromeDriver(service, options);
        this.driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        this.base = base;
        this.window = this.driver.manage().window().getSize();
        resize(WIDTH, HEIGHT);
        // the tests read dates and zones as English writes them, whatever the machine's locale
        this.driver.executeCdpCommand("Emulation.setLocaleOverride", Map.of("locale", "en-US"));
    }

    /**
     * Opens a browser on an application, or skips the test when there is no Chromium here (fails it
     * in CI).
     * @param base the application's root URL
     * @return the browser
     */
    static Browser open(String base) throws IOException {
        String chromium = location("DSCHED_CHROMIUM", "/usr/bin/chromium");
        String chromedriver = location("DSCHED_CHROMEDRIVER", "/usr/bin/chromedriver");
        Prerequisites.require(
                Files.isExecutable(Path.of(chromium)) && Files.isExecutable(Path.of(chromedriver)),
                "No Chromium here (" + chromium + ", " + chromedriver + "): install Debian's chromium and"
                        + " chromium-driver (.ci/run does) or set DSCHED_CHROMIUM and DSCHED_CHROMEDRIVER");
        return new Browser(base);
    }

    private static String location(String variable, String fallback) {
        String value = System.getenv(variable);
        return (value != null && !value.isBlank()) ? value : fallback;
    }

    /**
     * Makes the browser as a new one, for the next test or the next user: no dialog left open, no
     * page of the last one, signed out (no cookie), nothing kept for the application (local
     * storage and the like), the viewport, the zone and the colour scheme as they opened, and
     * nothing in the console of what came before. The language stays, as it opened.
     * @throws org.openqa.selenium.WebDriverException when the browser does not answer as it should
     *     (it crashed, hangs or was closed): open another
     */
    void startAfresh() {
        if (this.closed) {
            throw new IllegalStateException("The browser is closed");
        }
        try {
            this.driver.switchTo().alert().dismiss();
        } catch (NoAlertPresentException ex) {
            // no dialog left open: as expected
        }
        // the last page goes, with its scripts and its requests, within a bound
        Duration pageLoad = this.driver.manage().timeouts().getPageLoadTimeout();
        this.driver.manage().timeouts().pageLoadTimeout(LEAVING);
        try {
            this.driver.get("about:blank");
        } finally {
            this.driver.manage().timeouts().pageLoadTimeout(pageLoad);
        }
        this.driver.executeCdpCommand("Network.clearBrowserCookies", Map.of());
        URI site = URI.create(this.base);
        this.driver.executeCdpCommand(
                "Storage.clearDataForOrigin",
                Map.of("origin", site.getScheme() + "://" + site.getAuthority(), "storageTypes", "all"));
        this.driver.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", ""));
        this.driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "", "features", List.of()));
        if (!this.driver.manage().window().getSize().equals(this.window)) {
            this.driver.manage().window().setSize(this.window);
        }
        resize(WIDTH, HEIGHT);
        this.driver.manage().logs().get(LogType.BROWSER);
    }

    /** Signs in through the application's login form and lands on the UI. */
    void signIn(String user, String password) {
        signIn(user, password, "");
    }

    /**
     * Follows a link into the UI before signing in, as from an alert, and signs in on the page it
     * leads to.
     * @param route the UI's page, after its {@code #}, such as {@code /dead-letters?job=x}; empty for
     *     the UI's first page
     */
    void signIn(String user, String password, String route) {
        this.driver.get(this.base + "/actuator/dsched-ui/" + (route.isEmpty() ? "" : "#" + route));
        waitFor((d) -> !d.findElements(By.id("username")).isEmpty());
        // whatever the application's pages kept in this browser is gone (its session storage lives as
        // long as the tab, and only a page of the application reaches it)
        script("localStorage.clear(); sessionStorage.clear();");
        this.driver.findElement(By.id("username")).sendKeys(user);
        this.driver.findElement(By.id("password")).sendKeys(password);
        this.driver.findElement(By.cssSelector("button[type=submit]")).click();
        waitFor((d) -> d.getCurrentUrl().contains("/actuator/dsched-ui/"));
        waitFor((d) -> d.findElement(By.id("user")).getText().contains(user));
        // what the application's login page logged is not the UI's
        this.driver.manage().logs().get(LogType.BROWSER);
    }

    /** Goes to a page of the UI and waits for its heading. */
    void page(String route, String heading) {
        leave();
        this.driver.get(this.base + "/actuator/dsched-ui/#" + route);
        heading(heading);
    }

    /**
     * Makes the browser's zone another than the machine's, for the pages loaded from now on.
     * @param zone an IANA zone, such as {@code America/New_York}
     */
    void timeZone(String zone) {
        this.driver.executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", zone));
    }

    /**
     * Marks the page shown as left, so that {@link #heading} waits for the next one, however it
     * comes: call it before a click or a key that leads to another page or to the same page anew.
     */
    void leave() {
        script("document.querySelectorAll('main .view').forEach((view) => view.classList.add('left'))");
    }

    /** Loads the page shown anew, as a new visit, and waits for its heading. */
    void reload(String heading) {
        leave();
        this.driver.navigate().refresh();
        heading(heading);
    }

    /**
     * Waits for the page with a heading, then checks what every page must be: no value shown as
     * {@code null}, {@code undefined}, {@code NaN} or {@code [object Object]}, and every control
     * labelled.
     */
    void heading(String heading) {
        waitFor((d) -> d.findElements(By.cssSelector("main .view:not(.left) h1")).stream()
                .anyMatch((h1) -> h1.getText().equals(heading)));
        assertThat(script("""
                        const view = document.querySelector('main .view:not(.left)');
                        const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
                        const stray = [];
                        while (walker.nextNode()) {
                            const text = walker.currentNode.data.trim();
                            if (['null', 'undefined', 'NaN', '[object Object]'].includes(text)) stray.push(text);
                        }
                        return stray;
                        """))
                .as("values shown as text of no meaning on " + heading)
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .isEmpty();
        assertThat(script("""
                        return [...document.querySelectorAll('main .view:not(.left) :is(input, select, textarea)')]
                            .filter((c) => c.labels.length === 0 && !c.getAttribute('aria-label'))
                            .map((c) => c.outerHTML);
                        """))
                .as("controls without a label on " + heading)
                .asInstanceOf(InstanceOfAssertFactories.LIST)
                .isEmpty();
    }

    /** Presses keys on the element that has the focus. */
    void keys(CharSequence... keys) {
        this.driver.switchTo().activeElement().sendKeys(keys);
    }

    /**
     * The element that has the focus: its tag, its id after {@code #}, its link and its text, such
     * as {@code a #/jobs Jobs} or {@code input#job-search}.
     */
    String focused() {
        return ((String) script("""
                        const e = document.activeElement;
                        const href = e.getAttribute('href');
                        return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (href ? ' ' + href : '')
                            + ' ' + e.textContent.trim().substring(0, 40);
                        """)).trim();
    }

    String url() {
        return this.driver.getCurrentUrl();
    }

    WebElement find(String css) {
        return waitFor((d) -> {
            List<WebElement> found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0);
        });
    }

    List<WebElement> all(String css) {
        return this.driver.findElements(By.cssSelector(css));
    }

    String text(String css) {
        return find(css).getText();
    }

    <T> T waitFor(Function<WebDriver, T> condition) {
        try {
            return new WebDriverWait(this.driver, WAIT)
                    .ignoring(StaleElementReferenceException.class)
                    .until(condition::apply);
        } catch (TimeoutException ex) {
            String page = String.valueOf(script("return document.querySelector('main')?.innerText"));
            throw new AssertionError("Timed out on " + this.driver.getCurrentUrl() + " showing:\n" + page, ex);
        }
    }

    Object script(String script, Object... args) {
        return ((JavascriptExecutor) this.driver).executeScript(script, args);
    }

    /** Runs a script that answers by calling its last argument, once its promises have settled. */
    Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) this.driver).executeAsyncScript(script, args);
    }

    /**
     * Posts to the dsched endpoint from the page, as the UI would, with the session and the CSRF
     * token: what a user who forges a request in the browser's console gets.
     * @return the status and the body, such as {@code 403 {...}}
     */
    String forge(String path, Map<String, String> body) {
        return forge(path, body, true);
    }

    /**
     * Posts to the dsched endpoint from the page with the session, with or without the CSRF token.
     * @return the status and the body, such as {@code 403 {...}}
     */
    String forge(String path, Map<String, String> body, boolean csrfToken) {
        return (String) this.driver.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                const token = document.cookie.split('; ').find((c) => c.startsWith('XSRF-TOKEN='));
                const headers = {'Content-Type': 'application/json'};
                if (arguments[2]) headers['X-XSRF-TOKEN'] = token ? decodeURIComponent(token.substring(11)) : '';
                fetch('../dsched' + arguments[0], {method: 'POST', credentials: 'same-origin', headers,
                    body: JSON.stringify(arguments[1])})
                  .then((r) => r.text().then((t) => done(r.status + ' ' + t)), (e) => done('error ' + e));
                """, path, body, csrfToken);
    }

    /** Gives the page a viewport of this size, as a screen of it would, whatever the window's frame. */
    void resize(int width, int height) {
        this.driver.executeCdpCommand(
                "Emulation.setDeviceMetricsOverride",
                Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", width < 600));
    }

    void darkMode(boolean dark) {
        this.driver.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", dark ? "dark" : "light"))));
    }

    /** Saves a screenshot under target/ui-screenshots/. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        File shot = this.driver.getScreenshotAs(OutputType.FILE);
        Path target = SCREENSHOTS.resolve(name + ".png");
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        return target;
    }

    /**
     * Asserts that the browser's console has no error since the last call, but for requests the
     * test expects to be refused (the browser logs each answer of 400 or more as an error).
     * @param refused paths of requests expected to fail, such as {@code /schedule-preview?cron=0+61}
     */
    void assertNoConsoleErrors(String... refused) {
        List<String> errors = this.driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .filter((message) -> Arrays.stream(refused)
                        .noneMatch((path) -> message.contains(path) && message.contains("Failed to load resource")))
                .toList();
        assertThat(errors).as("errors in the browser's console").isEmpty();
    }

    @Override
    public void close() {
        if (this.closed) {
            return;
        }
        this.closed = true;
        try {
            this.driver.quit();
        } finally {
            FileSystemUtils.deleteRecursively(this.profile.toFile());
        }
    }
}
