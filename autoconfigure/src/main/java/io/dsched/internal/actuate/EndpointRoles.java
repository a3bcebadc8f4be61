package io.dsched.internal.actuate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.actuate.endpoint.SecurityContext;

/**
 * Who may do what through the endpoint. Each role includes the ones below it: an admin may do what
 * an operator may, an operator what a viewer may.
 *
 * <p>With Spring Security, a request carries an authenticated principal and its roles. Without it,
 * there is no one to check: reads are open to whoever can reach the endpoint, and writes only when
 * the application turned them on explicitly.
 */
public final class EndpointRoles {

    /** The three levels of access, and none: a request that only needs to be authenticated. */
    enum Level {
        NONE,
        VIEWER,
        OPERATOR,
        ADMIN
    }

    private final String viewer;

    private final String operator;

    private final String admin;

    private final boolean secured;

    private final boolean unsecuredWrites;

    /**
     * Creates the roles.
     * @param viewer the role that may read
     * @param operator the role that may also pause, resume, trigger, replay and discard
     * @param admin the role that may also change schedules and parameters
     * @param secured whether Spring Security authenticates the endpoint's requests
     * @param unsecuredWrites whether to allow writes without Spring Security
     */
    public EndpointRoles(String viewer, String operator, String admin, boolean secured, boolean unsecuredWrites) {
        this.viewer = viewer;
        this.operator = operator;
        this.admin = admin;
        this.secured = secured;
        this.unsecuredWrites = unsecuredWrites;
    }

    /**
     * Decides whether a request may act at a level.
     * @param context the request's security
     * @param level what it needs
     * @return {@code null} if it may, else the HTTP status and reason it may not
     */
    Refusal check(SecurityContext context, Level level) {
        if (!this.secured) {
            if (level == Level.NONE || level == Level.VIEWER || this.unsecuredWrites) {
                return null;
            }
            return new Refusal(403, "Writes are off without Spring Security; see dsched.management.unsecured-writes");
        }
        if (context.getPrincipal() == null) {
            return new Refusal(401, "Authentication is required");
        }
        boolean granted =
                switch (level) {
                    case NONE -> true;
                    case VIEWER -> has(context, this.viewer) || has(context, this.operator) || has(context, this.admin);
                    case OPERATOR -> has(context, this.operator) || has(context, this.admin);
                    case ADMIN -> has(context, this.admin);
                };
        return granted ? null : new Refusal(403, "This needs the role " + role(level));
    }

    /**
     * Decides whether an authenticated user of a request has a level: never without Spring
     * Security, where no one is authenticated.
     * @param context the request's security
     * @param level the level
     * @return whether the request has it
     */
    boolean grants(SecurityContext context, Level level) {
        return this.secured && check(context, level) == null;
    }

    /**
     * Returns the levels a request has, for a client that offers only what its user may do.
     * @param context the request's security
     * @return {@code viewer}, {@code operator} and {@code admin}, as far as granted
     */
    public List<String> levels(SecurityContext context) {
        List<String> levels = new ArrayList<>();
        for (Level level : List.of(Level.VIEWER, Level.OPERATOR, Level.ADMIN)) {
            if (check(context, level) == null) {
                levels.add(level.name().toLowerCase(Locale.ROOT));
            }
        }
        return levels;
    }

    /**
     * Returns whether write operations are offered at all.
     * @return {@code true} with Spring Security, or when unsecured writes are turned on
     */
    public boolean writesExposed() {
        return this.secured || this.unsecuredWrites;
    }

    private String role(Level level) {
        return switch (level) {
            case NONE -> "";
            case VIEWER -> this.viewer;
            case OPERATOR -> this.operator;
            case ADMIN -> this.admin;
        };
    }

    private static boolean has(SecurityContext context, String role) {
        return context.isUserInRole(role);
    }

    /**
     * A request refused.
     *
     * @param status 401 or 403
     * @param reason why
     */
    record Refusal(int status, String reason) {}
}
