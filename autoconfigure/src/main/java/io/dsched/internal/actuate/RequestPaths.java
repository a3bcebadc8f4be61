package io.dsched.internal.actuate;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import org.springframework.util.StringUtils;

/**
 * A request path the way the servlet container and Spring MVC may route it, for decisions that
 * must not depend on how a client spelled it: percent-encoding decoded (again, should it decode to
 * more of it), path parameters ({@code ;jsessionid=...}) removed, backslashes read as slashes,
 * empty, {@code .} and {@code ..} segments resolved, and lower case. The result can only be wider
 * than what routes: it is meant for limits that must hold for every spelling, not for routing.
 */
final class RequestPaths {

    private static final int MAX_DECODES = 3;

    private RequestPaths() {}

    /**
     * Returns a path normalised.
     * @param path a path, raw or decoded
     * @return the path decoded, without path parameters, dot segments or empty segments, in lower case
     */
    static String normalize(String path) {
        String decoded = path;
        for (int i = 0; i < MAX_DECODES && decoded.indexOf('%') >= 0; i++) {
            try {
                decoded = StringUtils.uriDecode(decoded, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException ex) {
                // a broken escape: the container refuses such a request; the rest is still read
                break;
            }
        }
        Deque<String> segments = new ArrayDeque<>();
        for (String segment : decoded.replace('\\', '/').split("/")) {
            int parameters = segment.indexOf(';');
            String name = (parameters >= 0) ? segment.substring(0, parameters) : segment;
            if (name.equals("..")) {
                segments.pollLast();
            } else if (!name.isEmpty() && !name.equals(".")) {
                segments.addLast(name);
            }
        }
        return "/" + String.join("/", segments).toLowerCase(Locale.ROOT);
    }

    /**
     * Returns whether a normalised path leads to a normalised prefix, or below it, wherever the
     * prefix starts in it (so under any servlet mapping, such as {@code /api/actuator/dsched}).
     * @param path the normalised path
     * @param prefix the normalised prefix, such as {@code /actuator/dsched}
     * @return whether the path is the prefix or below it
     */
    static boolean reaches(String path, String prefix) {
        int at = path.indexOf(prefix);
        while (at >= 0) {
            int end = at + prefix.length();
            if (end == path.length() || path.charAt(end) == '/') {
                return true;
            }
            at = path.indexOf(prefix, at + 1);
        }
        return false;
    }
}
