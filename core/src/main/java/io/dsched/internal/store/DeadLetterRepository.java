package io.dsched.internal.store;

import java.time.Instant;
import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.CrudRepository;

/**
 * Spring Data JDBC repository of {@code dsched_dead_letter}.
 */
public interface DeadLetterRepository extends CrudRepository<DeadLetter, Long> {

    /**
     * Records an operator's decision on an open letter; of two concurrent decisions only one
     * changes the row.
     * @return the number of rows changed, 1 or 0
     */
    @Modifying
    @Query("""
            UPDATE dsched_dead_letter SET status = :status, acted_by = :actor, acted_reason = :reason, acted_at = :at
             WHERE id = :id AND status = 'OPEN'
            """)
    int close(long id, String status, String actor, String reason, Instant at);
}
