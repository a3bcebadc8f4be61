package io.dsched.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
import java.util.Objects;
import org.quartz.JobPersistenceException;
import org.quartz.spi.TriggerFiredBundle;
import org.quartz.spi.TriggerFiredResult;
import org.slf4j.Logger;

/**
 * The application's claims of the fires of a firing transaction, behind a savepoint: claims that
 * fail are rolled back to it and the fires go on, each worker then claiming its own.
 */
final class ClaimsBehindSavepoint {

    private ClaimsBehindSavepoint() {}

    /**
     * Claims the fires that were fired.
     * @param conn the firing transaction's connection
     * @param claims what claims them
     * @param results the transaction's fires
     * @param log where a claim that failed is told
     * @return the claims, or {@code null} if none was made
     * @throws JobPersistenceException if the claims cannot be rolled back
     */
    static FireClaims.Claimed claim(Connection conn, FireClaims claims, List<TriggerFiredResult> results, Logger log)
            throws JobPersistenceException {
        List<TriggerFiredBundle> bundles = results.stream()
                .map(TriggerFiredResult::getTriggerFiredBundle)
                .filter(Objects::nonNull)
                .toList();
        if (bundles.isEmpty()) {
            return null;
        }
        Savepoint beforeClaims = null;
        try {
            beforeClaims = conn.setSavepoint("dsched_claims");
            return claims.claim(conn, bundles);
        } catch (SQLException | RuntimeException ex) {
            log.debug("Not claiming fires in the transaction that fires them: " + ex.getMessage());
            rollBackTo(conn, beforeClaims);
            return null;
        }
    }

    private static void rollBackTo(Connection conn, Savepoint savepoint) throws JobPersistenceException {
        try {
            if (savepoint != null) {
                conn.rollback(savepoint);
            }
        } catch (SQLException rollback) {
            throw new JobPersistenceException("Couldn't roll back to a savepoint: " + rollback.getMessage(), rollback);
        }
    }
}
