package io.dsched.internal.actuate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request to the {@code dsched} endpoint whose body is larger than the endpoint reads,
 * before anything parses it: with 413 when its declared length is over {@link #MAX_BODY}, and,
 * for a body of no declared length (chunked, or HTTP/2 without one), once {@link #MAX_BODY} bytes
 * have been read. Every field has a smaller limit of its own, which the endpoint checks with the
 * field's name; this one keeps a client from making a node read a body of any size first.
 *
 * <p>Which requests it limits is decided on the decoded, normalised path, never on the raw
 * URI: {@code /%61ctuator/dsched}, {@code /actuator;x=1/dsched}, {@code //actuator//dsched} and
 * {@code /ACTUATOR/dsched} are all limited like {@code /actuator/dsched}.
 */
public final class RequestSizeLimit extends OncePerRequestFilter {

    /** Largest body the endpoint reads, in bytes: room for the largest parameters, escaped. */
    public static final int MAX_BODY = 256 * 1024;

    private final String endpoint;

    /**
     * Creates the filter.
     * @param endpoint the endpoint's path below the servlet context, such as {@code /actuator/dsched}
     */
    public RequestSizeLimit(String endpoint) {
        this.endpoint = RequestPaths.normalize(endpoint);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // Whatever the spelling (%61ctuator, ;params, //, /./, case), the decision is made on the path
        // as the container and Spring MVC route it, and on the raw path decoded the same way: a
        // request that either of them could route to the endpoint is limited.
        String routed = request.getServletPath() + Objects.toString(request.getPathInfo(), "");
        String raw = request.getRequestURI().substring(request.getContextPath().length());
        return !RequestPaths.reaches(RequestPaths.normalize(routed), this.endpoint)
                && !RequestPaths.reaches(RequestPaths.normalize(raw), this.endpoint);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long length = request.getContentLengthLong();
        if (length > MAX_BODY) {
            refuse(response, "The request's body has " + length + " bytes; at most " + MAX_BODY + " are read");
            return;
        }
        if (length >= 0) {
            // the container reads no more than the declared length
            chain.doFilter(request, response);
            return;
        }
        byte[] body = request.getInputStream().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            refuse(
                    response,
                    "The request's body has more than " + MAX_BODY + " bytes; at most " + MAX_BODY + " are read");
            return;
        }
        chain.doFilter(new ReadBody(request, body), response);
    }

    private static void refuse(HttpServletResponse response, String message) throws IOException {
        response.setStatus(413);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        // the message is this class's own text: nothing the client sent is echoed
        response.getWriter()
                .write("{\"status\":413,\"error\":\"Content Too Large\",\"message\":\"" + message
                        + "\",\"field\":null}");
    }

    /** A request whose body was read already, within the limit. */
    private static final class ReadBody extends HttpServletRequestWrapper {

        private final byte[] body;

        ReadBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(this.body);
            return new ServletInputStream() {

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] bytes, int offset, int length) {
                    return in.read(bytes, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body was read already");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String encoding = getCharacterEncoding();
            Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
            return new BufferedReader(new InputStreamReader(getInputStream(), charset));
        }

        @Override
        public int getContentLength() {
            return this.body.length;
        }

        @Override
        public long getContentLengthLong() {
            return this.body.length;
        }
    }
}
