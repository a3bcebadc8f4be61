package io.dsched.internal.jobs;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/**
 * Where a JSON text could not be read, for a message that names the place but not what stands
 * there: Jackson's own messages quote the offending value, which may be a secret, and such a
 * message ends up in an answer and in the audit log.
 */
public final class JsonProblem {

    private JsonProblem() {}

    /**
     * Describes where reading failed.
     * @param ex the failure
     * @return such as {@code "at accounts[0].pin (line 1, column 42)"}, or an empty string
     */
    public static String where(JacksonException ex) {
        StringBuilder where = new StringBuilder();
        for (JacksonException.Reference reference : ex.getPath()) {
            if (reference.getPropertyName() != null) {
                where.append(where.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                where.append('[').append(reference.getIndex()).append(']');
            }
        }
        String path = where.isEmpty() ? "" : "at " + where;
        TokenStreamLocation location = ex.getLocation();
        if (location == null || location.getLineNr() < 0) {
            return path;
        }
        String position = "(line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
        return path.isEmpty() ? position : path + " " + position;
    }
}
