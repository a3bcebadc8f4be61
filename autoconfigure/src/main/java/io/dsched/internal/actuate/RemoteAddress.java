package io.dsched.internal.actuate;

import java.util.function.Supplier;
import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The address the current request came from, as the servlet container sees it (behind a proxy,
 * set {@code server.forward-headers-strategy} so that it is the client's); {@code null} when
 * there is no servlet request on this thread.
 */
final class RemoteAddress implements Supplier<String> {

    private static final boolean SERVLET = ClassUtils.isPresent(
                    "org.springframework.web.context.request.ServletRequestAttributes",
                    RemoteAddress.class.getClassLoader())
            && ClassUtils.isPresent("jakarta.servlet.ServletRequest", RemoteAddress.class.getClassLoader());

    @Override
    public String get() {
        return SERVLET ? Servlet.address() : null;
    }

    private static final class Servlet {

        static String address() {
            RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
            return (attributes instanceof ServletRequestAttributes servlet)
                    ? servlet.getRequest().getRemoteAddr()
                    : null;
        }
    }
}
