package io.dsched.sample.security;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.csrf.CsrfException;

/**
 * Says why a write without a valid CSRF token is refused, so that a script's author finds the fix
 * in the answer; any other refusal is answered as Spring Security does.
 */
final class CsrfRefusal implements AccessDeniedHandler {

    static final String MESSAGE = "A write needs the CSRF token: send the value of the XSRF-TOKEN cookie,"
            + " which every answer sets, back in the X-XSRF-TOKEN header, with the cookie"
            + " (the README shows it with curl)";

    private final AccessDeniedHandler otherwise = new AccessDeniedHandlerImpl();

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException refusal)
            throws IOException, ServletException {
        if (!(refusal instanceof CsrfException) || response.isCommitted()) {
            this.otherwise.handle(request, response, refusal);
            return;
        }
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"status\":403,\"error\":\"Forbidden\",\"message\":\"" + MESSAGE + "\"}");
    }
}
