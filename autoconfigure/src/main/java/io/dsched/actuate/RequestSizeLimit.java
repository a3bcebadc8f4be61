package io.dsched.actuate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request to the {@code dsched} endpoint whose body is larger than the endpoint reads,
 * before anything parses it: 413 when its declared length is over {@link #MAX_BODY}, 411 when it
 * sends a body without declaring its length. Every field has a smaller limit of its own, which
 * the endpoint checks with the field's name; this one keeps a client from making a node read a
 * body of any size first.
 */
public final class RequestSizeLimit extends OncePerRequestFilter {

    /** Largest body the endpoint reads, in bytes: room for the largest parameters, escaped. */
    public static final long MAX_BODY = 256 * 1024;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long length = request.getContentLengthLong();
        if (length > MAX_BODY) {
            refuse(response, 413, "The request's body has " + length + " bytes; at most " + MAX_BODY + " are read");
        } else if (length < 0 && request.getHeader("Transfer-Encoding") != null) {
            refuse(response, 411, "Send the request's body with its Content-Length, of at most " + MAX_BODY + " bytes");
        } else {
            chain.doFilter(request, response);
        }
    }

    private static void refuse(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // the message is this class's own text: nothing the client sent is echoed
        response.getWriter().write("{\"message\":\"" + message + "\"}");
    }
}
