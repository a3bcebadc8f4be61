package io.dsched.ui;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Answers for the UI's files, which are read once at start-up: a fixed set of names, so that no
 * request reaches anything else. Every answer carries a Content-Security-Policy that allows
 * scripts, styles and images from the UI's own origin only, forbids inline script and lets forms
 * submit to that origin only; a Permissions-Policy that turns off the browser features the UI does
 * not use; and a Cross-Origin-Opener-Policy that keeps pages of other origins out of its window.
 */
final class UiFiles implements HttpRequestHandler {

    /** The policy of every answer. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** The browser features every answer turns off: the UI uses none of them. */
    static final String PERMISSIONS_POLICY = "accelerometer=(), camera=(), display-capture=(), geolocation=(),"
            + " gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(),"
            + " publickey-credentials-get=(), screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()";

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html;charset=UTF-8",
            "js", "text/javascript;charset=UTF-8",
            "css", "text/css;charset=UTF-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon");

    private final Map<String, File> files;

    UiFiles(Map<String, File> files) {
        this.files = files;
    }

    static Map<String, File> load(String location) throws IOException {
        Map<String, File> files = new HashMap<>();
        for (Resource resource : new PathMatchingResourcePatternResolver().getResources(location + "*")) {
            String name = resource.getFilename();
            String type = (name != null) ? TYPES.get(name.substring(name.lastIndexOf('.') + 1)) : null;
            if (type != null) {
                byte[] content = resource.getContentAsByteArray();
                files.put(name, new File(content, type, etag(content)));
            }
        }
        return files;
    }

    @Override
    public void handleRequest(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Frame-Options", "DENY");
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
            response.setHeader("Allow", "GET, HEAD");
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        if (request.getRequestURI().endsWith(DschedUiManagementContextConfiguration.PATH)) {
            response.sendRedirect(request.getRequestURI() + "/");
            return;
        }
        Object within = request.getAttribute(HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE);
        String name = (within instanceof String path && !path.isEmpty()) ? path : "index.html";
        File file = this.files.get(name);
        if (file == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("ETag", file.etag());
        if (file.etag().equals(request.getHeader("If-None-Match"))) {
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        response.setContentType(file.type());
        response.setContentLength(file.content().length);
        if ("GET".equals(request.getMethod())) {
            response.getOutputStream().write(file.content());
        }
    }

    private static String etag(byte[] content) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
            return "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
        } catch (NoSuchAlgorithmException ex) {
            return "\"" + new String(content, StandardCharsets.ISO_8859_1).hashCode() + "\"";
        }
    }

    /**
     * One file of the UI.
     *
     * @param content its bytes
     * @param type its media type
     * @param etag its entity tag
     */
    record File(byte[] content, String type, String etag) {}
}
