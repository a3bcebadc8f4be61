package io.dsched.sample.history;

import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionRepository;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * REST view of {@code dsched_execution}: {@code GET /executions?job=settlePendingOrders} lists the
 * newest attempts of a job.
 */
@RestController
public class ExecutionController {

    private static final int MAX_LIMIT = 500;

    private final ExecutionRepository executions;

    /**
     * Creates the controller.
     * @param executions dsched's execution history
     */
    public ExecutionController(ExecutionRepository executions) {
        this.executions = executions;
    }

    /**
     * Lists the newest attempts of a job.
     * @param job the job's name
     * @param limit how many at most, 1 to 500
     * @return the attempts, newest fire first
     */
    @GetMapping("/executions")
    public List<ExecutionRecord> list(@RequestParam String job, @RequestParam(defaultValue = "20") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "limit must be between 1 and " + MAX_LIMIT);
        }
        return this.executions.findLatestByJobName(job, limit);
    }
}
