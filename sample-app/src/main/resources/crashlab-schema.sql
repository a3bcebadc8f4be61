-- Completed runs of the crashlab jobs, one row per run; portable across H2, PostgreSQL and MariaDB.
-- No unique key on purpose: a fire completed twice must show as two rows. scheduled_ms is the
-- fire's scheduled time and ran_ms the database's time when the run started, both in epoch
-- milliseconds, so that a fire run early shows whatever the node's clock says.
CREATE TABLE IF NOT EXISTS crashlab_run (
    run_id          VARCHAR(36)  NOT NULL PRIMARY KEY,
    job_name        VARCHAR(200) NOT NULL,
    idempotency_key VARCHAR(300) NOT NULL,
    attempt         INT          NOT NULL,
    execution_id    BIGINT       NOT NULL,
    node_id         VARCHAR(200) NOT NULL,
    scheduled_ms    BIGINT,
    ran_ms          BIGINT
);
