package io.dsched.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the sample application over real HTTP, as a script uses it: as one of the sample's
 * users with HTTP Basic, as a browser session signed in through the login form, or as nobody; with a
 * cookie jar; and for a write, the CSRF token of the {@code XSRF-TOKEN} cookie sent back in the
 * {@code X-XSRF-TOKEN} header (unless a test leaves it out). Paths are sent exactly as given, so
 * {@code /%61ctuator} stays encoded.
 */
public final class SampleClient {

    /** The header a write sends the CSRF token in. */
    public static final String CSRF_HEADER = "X-XSRF-TOKEN";

    private static final JsonMapper mapper = JsonMapper.builder().build();

    private final String base;

    private final String authorization;

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);

    private final HttpClient http;

    private SampleClient(String base, String user, String password) {
        this.base = base;
        this.authorization = (user != null)
                ? "Basic "
                        + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                : null;
        this.http = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .cookieHandler(this.cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * Returns a client that sends a user's credentials with HTTP Basic on every request.
     * @param base the application's root, such as {@code http://127.0.0.1:8080}
     * @param user the user
     * @param password the user's password
     * @return the client
     */
    public static SampleClient basic(String base, String user, String password) {
        return new SampleClient(base, user, password);
    }

    /**
     * Returns a client that sends no credentials.
     * @param base the application's root
     * @return the client
     */
    public static SampleClient anonymous(String base) {
        return new SampleClient(base, null, null);
    }

    /**
     * Returns a client that signs in through the login form, as a browser does, and is then
     * authenticated by its session cookie alone.
     * @param base the application's root
     * @param user the user
     * @param password the user's password
     * @return the signed-in client
     */
    public static SampleClient session(String base, String user, String password) {
        SampleClient client = anonymous(base);
        Response login = client.form("/login", Map.of("username", user, "password", password), true);
        if (login.status() != 302 || login.header("Location").contains("error")) {
            throw new IllegalStateException("Signing in as " + user + " answered " + login);
        }
        return client;
    }

    /**
     * Reads a path.
     * @param path the path and query, sent as given
     * @return the answer
     */
    public Response get(String path) {
        return send(request(path).GET());
    }

    /**
     * Posts a JSON body with the CSRF token.
     * @param path the path, sent as given
     * @param body the JSON body
     * @return the answer
     */
    public Response post(String path, String body) {
        return post(path, body, true);
    }

    /**
     * Posts a JSON body, with or without the CSRF token.
     * @param path the path, sent as given
     * @param body the JSON body
     * @param token whether to send the token
     * @return the answer
     */
    public Response post(String path, String body, boolean token) {
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        return send(token ? request.header(CSRF_HEADER, csrfToken()) : request);
    }

    /**
     * Posts a form, as the login and logout forms do, with or without the CSRF token.
     * @param path the path, sent as given
     * @param fields the form's fields
     * @param token whether to send the token
     * @return the answer
     */
    public Response form(String path, Map<String, String> fields, boolean token) {
        String body = fields.entrySet().stream()
                .map((field) -> encode(field.getKey()) + "=" + encode(field.getValue()))
                .collect(Collectors.joining("&"));
        HttpRequest.Builder request = request(path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        return send(token ? request.header(CSRF_HEADER, csrfToken()) : request);
    }

    /**
     * Returns the CSRF token as a script finds it: the value of the {@code XSRF-TOKEN} cookie, which
     * any answer of the application sets when the jar has none.
     * @return the token
     */
    public String csrfToken() {
        String token = cookie("XSRF-TOKEN");
        if (token == null) {
            get("/actuator/health/liveness");
            token = cookie("XSRF-TOKEN");
        }
        if (token == null) {
            throw new IllegalStateException("No XSRF-TOKEN cookie from " + this.base);
        }
        return token;
    }

    /**
     * Returns a cookie of the jar.
     * @param name its name
     * @return its value, or {@code null} if the jar has none
     */
    public String cookie(String name) {
        return this.cookies.getCookieStore().get(URI.create(this.base)).stream()
                .filter((cookie) -> cookie.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse(null);
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(this.base + path)).timeout(Duration.ofSeconds(30));
        return (this.authorization != null) ? request.header("Authorization", this.authorization) : request;
    }

    private Response send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        try {
            HttpResponse<String> response = this.http.send(built, HttpResponse.BodyHandlers.ofString());
            return new Response(
                    built.method() + " " + built.uri().getRawPath(),
                    response.statusCode(),
                    response.headers(),
                    response.body());
        } catch (IOException ex) {
            throw new UncheckedIOException(built.method() + " " + built.uri() + " failed", ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * An answer.
     *
     * @param request the request's method and raw path
     * @param status its status
     * @param headers its headers
     * @param body its body
     */
    public record Response(String request, int status, HttpHeaders headers, String body) {

        /**
         * Returns the body as JSON.
         * @return the JSON
         */
        public JsonNode json() {
            return mapper.readTree(this.body);
        }

        /**
         * Returns the body read as a type.
         * @param <T> the type
         * @param type the type
         * @return the body
         */
        public <T> T as(Class<T> type) {
            return mapper.readValue(this.body, type);
        }

        /**
         * Returns a header.
         * @param name its name
         * @return its first value, or an empty string
         */
        public String header(String name) {
            return this.headers.firstValue(name).orElse("");
        }

        @Override
        public String toString() {
            return this.request + " -> " + this.status + " "
                    + this.body.substring(0, Math.min(300, this.body.length()));
        }
    }
}
