-- dsched schema for MariaDB 10.6+, which the tests run on, and MySQL 8, expected to work, not yet tested.
-- Every statement is idempotent: it creates what is missing and never drops or alters
-- an existing table or row. Apply it with Flyway or Liquibase if you manage schemas
-- yourself, and set dsched.jdbc.initialize-schema=never.
-- All dsched timestamps are UTC, in DATETIME(3) columns without a zone.

-- Quartz clustered job store, under the table prefix DSCHED_QRTZ_ (scheduler name 'dsched').
CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_JOB_DETAILS (
    SCHED_NAME        VARCHAR(120) NOT NULL,
    JOB_NAME          VARCHAR(200) NOT NULL,
    JOB_GROUP         VARCHAR(200) NOT NULL,
    DESCRIPTION       VARCHAR(250),
    JOB_CLASS_NAME    VARCHAR(250) NOT NULL,
    IS_DURABLE        BOOLEAN      NOT NULL,
    IS_NONCONCURRENT  BOOLEAN      NOT NULL,
    IS_UPDATE_DATA    BOOLEAN      NOT NULL,
    REQUESTS_RECOVERY BOOLEAN      NOT NULL,
    JOB_DATA          BLOB,
    PRIMARY KEY (SCHED_NAME, JOB_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_J_REQ_RECOVERY (SCHED_NAME, REQUESTS_RECOVERY),
    INDEX IDX_DSCHED_QRTZ_J_GRP (SCHED_NAME, JOB_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_TRIGGERS (
    SCHED_NAME     VARCHAR(120) NOT NULL,
    TRIGGER_NAME   VARCHAR(200) NOT NULL,
    TRIGGER_GROUP  VARCHAR(200) NOT NULL,
    JOB_NAME       VARCHAR(200) NOT NULL,
    JOB_GROUP      VARCHAR(200) NOT NULL,
    DESCRIPTION    VARCHAR(250),
    NEXT_FIRE_TIME BIGINT,
    PREV_FIRE_TIME BIGINT,
    PRIORITY       INTEGER,
    TRIGGER_STATE  VARCHAR(16)  NOT NULL,
    TRIGGER_TYPE   VARCHAR(8)   NOT NULL,
    START_TIME     BIGINT       NOT NULL,
    END_TIME       BIGINT,
    CALENDAR_NAME  VARCHAR(200),
    MISFIRE_INSTR  SMALLINT,
    JOB_DATA       BLOB,
    PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    FOREIGN KEY (SCHED_NAME, JOB_NAME, JOB_GROUP) REFERENCES DSCHED_QRTZ_JOB_DETAILS (SCHED_NAME, JOB_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_T_J (SCHED_NAME, JOB_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_T_JG (SCHED_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_T_C (SCHED_NAME, CALENDAR_NAME),
    INDEX IDX_DSCHED_QRTZ_T_G (SCHED_NAME, TRIGGER_GROUP),
    INDEX IDX_DSCHED_QRTZ_T_STATE (SCHED_NAME, TRIGGER_STATE),
    INDEX IDX_DSCHED_QRTZ_T_N_STATE (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP, TRIGGER_STATE),
    INDEX IDX_DSCHED_QRTZ_T_N_G_STATE (SCHED_NAME, TRIGGER_GROUP, TRIGGER_STATE),
    INDEX IDX_DSCHED_QRTZ_T_NEXT_FIRE_TIME (SCHED_NAME, NEXT_FIRE_TIME),
    INDEX IDX_DSCHED_QRTZ_T_NFT_ST (SCHED_NAME, TRIGGER_STATE, NEXT_FIRE_TIME),
    INDEX IDX_DSCHED_QRTZ_T_NFT_MISFIRE (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME),
    INDEX IDX_DSCHED_QRTZ_T_NFT_ST_MISFIRE (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME, TRIGGER_STATE),
    INDEX IDX_DSCHED_QRTZ_T_NFT_ST_MISFIRE_GRP (SCHED_NAME, MISFIRE_INSTR, NEXT_FIRE_TIME, TRIGGER_GROUP, TRIGGER_STATE)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_SIMPLE_TRIGGERS (
    SCHED_NAME      VARCHAR(120) NOT NULL,
    TRIGGER_NAME    VARCHAR(200) NOT NULL,
    TRIGGER_GROUP   VARCHAR(200) NOT NULL,
    REPEAT_COUNT    BIGINT       NOT NULL,
    REPEAT_INTERVAL BIGINT       NOT NULL,
    TIMES_TRIGGERED BIGINT       NOT NULL,
    PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    FOREIGN KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP) REFERENCES DSCHED_QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_CRON_TRIGGERS (
    SCHED_NAME      VARCHAR(120) NOT NULL,
    TRIGGER_NAME    VARCHAR(200) NOT NULL,
    TRIGGER_GROUP   VARCHAR(200) NOT NULL,
    CRON_EXPRESSION VARCHAR(120) NOT NULL,
    TIME_ZONE_ID    VARCHAR(80),
    PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    FOREIGN KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP) REFERENCES DSCHED_QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_SIMPROP_TRIGGERS (
    SCHED_NAME    VARCHAR(120)   NOT NULL,
    TRIGGER_NAME  VARCHAR(200)   NOT NULL,
    TRIGGER_GROUP VARCHAR(200)   NOT NULL,
    STR_PROP_1    VARCHAR(512),
    STR_PROP_2    VARCHAR(512),
    STR_PROP_3    VARCHAR(512),
    INT_PROP_1    INTEGER,
    INT_PROP_2    INTEGER,
    LONG_PROP_1   BIGINT,
    LONG_PROP_2   BIGINT,
    DEC_PROP_1    NUMERIC(13, 4),
    DEC_PROP_2    NUMERIC(13, 4),
    BOOL_PROP_1   BOOLEAN,
    BOOL_PROP_2   BOOLEAN,
    PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    FOREIGN KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP) REFERENCES DSCHED_QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_BLOB_TRIGGERS (
    SCHED_NAME    VARCHAR(120) NOT NULL,
    TRIGGER_NAME  VARCHAR(200) NOT NULL,
    TRIGGER_GROUP VARCHAR(200) NOT NULL,
    BLOB_DATA     BLOB,
    PRIMARY KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    FOREIGN KEY (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP) REFERENCES DSCHED_QRTZ_TRIGGERS (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_CALENDARS (
    SCHED_NAME    VARCHAR(120) NOT NULL,
    CALENDAR_NAME VARCHAR(200) NOT NULL,
    CALENDAR      BLOB        NOT NULL,
    PRIMARY KEY (SCHED_NAME, CALENDAR_NAME)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_PAUSED_TRIGGER_GRPS (
    SCHED_NAME    VARCHAR(120) NOT NULL,
    TRIGGER_GROUP VARCHAR(200) NOT NULL,
    PRIMARY KEY (SCHED_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_FIRED_TRIGGERS (
    SCHED_NAME        VARCHAR(120) NOT NULL,
    ENTRY_ID          VARCHAR(140) NOT NULL,
    TRIGGER_NAME      VARCHAR(200) NOT NULL,
    TRIGGER_GROUP     VARCHAR(200) NOT NULL,
    INSTANCE_NAME     VARCHAR(200) NOT NULL,
    FIRED_TIME        BIGINT       NOT NULL,
    SCHED_TIME        BIGINT       NOT NULL,
    PRIORITY          INTEGER      NOT NULL,
    STATE             VARCHAR(16)  NOT NULL,
    JOB_NAME          VARCHAR(200),
    JOB_GROUP         VARCHAR(200),
    IS_NONCONCURRENT  BOOLEAN,
    REQUESTS_RECOVERY BOOLEAN,
    PRIMARY KEY (SCHED_NAME, ENTRY_ID),
    INDEX IDX_DSCHED_QRTZ_FT_TRIG_INST_NAME (SCHED_NAME, INSTANCE_NAME),
    INDEX IDX_DSCHED_QRTZ_FT_INST_JOB_REQ_RCVRY (SCHED_NAME, INSTANCE_NAME, REQUESTS_RECOVERY),
    INDEX IDX_DSCHED_QRTZ_FT_J_G (SCHED_NAME, JOB_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_FT_JG (SCHED_NAME, JOB_GROUP),
    INDEX IDX_DSCHED_QRTZ_FT_T_G (SCHED_NAME, TRIGGER_NAME, TRIGGER_GROUP),
    INDEX IDX_DSCHED_QRTZ_FT_TG (SCHED_NAME, TRIGGER_GROUP)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_SCHEDULER_STATE (
    SCHED_NAME        VARCHAR(120) NOT NULL,
    INSTANCE_NAME     VARCHAR(200) NOT NULL,
    LAST_CHECKIN_TIME BIGINT       NOT NULL,
    CHECKIN_INTERVAL  BIGINT       NOT NULL,
    PRIMARY KEY (SCHED_NAME, INSTANCE_NAME)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS DSCHED_QRTZ_LOCKS (
    SCHED_NAME VARCHAR(120) NOT NULL,
    LOCK_NAME  VARCHAR(40)  NOT NULL,
    PRIMARY KEY (SCHED_NAME, LOCK_NAME)
) ENGINE = InnoDB;

-- ShedLock: the overlap guard of jobs that must not run concurrently.
CREATE TABLE IF NOT EXISTS dsched_lock (
    name       VARCHAR(200) NOT NULL,
    lock_until DATETIME(3)    NOT NULL,
    locked_at  DATETIME(3)    NOT NULL,
    locked_by  VARCHAR(255) NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB;

-- The execution history: one row per attempt of one fire. A public, documented table.
CREATE TABLE IF NOT EXISTS dsched_execution (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    job_name        VARCHAR(200)  NOT NULL,
    scheduled_at    DATETIME(3)     NOT NULL,
    attempt         INTEGER       NOT NULL,
    idempotency_key VARCHAR(255)  NOT NULL,
    status          VARCHAR(20)   NOT NULL,
    node_id         VARCHAR(200)  NOT NULL,
    started_at      DATETIME(3)     NOT NULL,
    finished_at     DATETIME(3),
    error_class     VARCHAR(500),
    error_message   VARCHAR(2000),
    status_reason   VARCHAR(500),
    origin          VARCHAR(20)   NOT NULL,
    due_at          DATETIME(3),
    payload         MEDIUMTEXT,
    priority        INTEGER       NOT NULL DEFAULT 0,
    -- compared as written, as the nodes count the attempts of each key
    limit_key       VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    CONSTRAINT uk_dsched_execution_fire UNIQUE (idempotency_key, attempt),
    INDEX idx_dsched_execution_job (job_name, scheduled_at),
    INDEX idx_dsched_execution_status (status, started_at),
    -- the waiting attempts of each status in the order the queue claims them: higher priority
    -- first, then the earliest due
    INDEX idx_dsched_execution_queue (status, priority DESC, due_at),
    -- the attempts that started in a window, for the Overview's, the Jobs page's and the
    -- timeline's counts (a table made by an earlier version lacks it: see the CHANGELOG)
    INDEX idx_dsched_execution_started (started_at, status, job_name)
) ENGINE = InnoDB;

-- Which annotation-declared definition of each job is in force (see "Rolling deployments").
CREATE TABLE IF NOT EXISTS dsched_job_definition (
    job_name        VARCHAR(200) NOT NULL,
    definition_hash VARCHAR(64)  NOT NULL,
    schedule        VARCHAR(500) NOT NULL,
    status          VARCHAR(20)  NOT NULL,
    node_id         VARCHAR(200) NOT NULL,
    created_at      DATETIME(3)    NOT NULL,
    PRIMARY KEY (job_name, definition_hash)
) ENGINE = InnoDB;

-- Jobs that leave (see the README): the set of jobs each deployment of a cluster declares and
-- when the cluster first saw it, in database time; which deployment each node started with; and
-- the declared jobs removed because no node declares them any more.
CREATE TABLE IF NOT EXISTS dsched_deployment (
    cluster_name    VARCHAR(120) NOT NULL,
    deployment_hash VARCHAR(64)  NOT NULL,
    job_names       MEDIUMTEXT NOT NULL,
    node_id         VARCHAR(200) NOT NULL,
    first_seen_at   DATETIME(3) NOT NULL,
    last_started_at DATETIME(3) NOT NULL,
    PRIMARY KEY (cluster_name, deployment_hash)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS dsched_node_deployment (
    cluster_name    VARCHAR(120) NOT NULL,
    node_id         VARCHAR(200) NOT NULL,
    deployment_hash VARCHAR(64)  NOT NULL,
    registered_at   DATETIME(3) NOT NULL,
    PRIMARY KEY (cluster_name, node_id)
) ENGINE = InnoDB;

CREATE TABLE IF NOT EXISTS dsched_job_removal (
    cluster_name VARCHAR(120) NOT NULL,
    job_name     VARCHAR(200) NOT NULL,
    removed_at   DATETIME(3) NOT NULL,
    PRIMARY KEY (cluster_name, job_name)
) ENGINE = InnoDB;

-- Callers' idempotency keys that deduplicate longer than the history keeps their attempts
-- (OneOff.uniqueFor): a key submitted again before expires_at schedules nothing.
CREATE TABLE IF NOT EXISTS dsched_unique_key (
    idempotency_key VARCHAR(255) NOT NULL PRIMARY KEY,
    execution_id    BIGINT       NOT NULL,
    due_at          DATETIME(3) NOT NULL,
    expires_at      DATETIME(3) NOT NULL,
    INDEX idx_dsched_unique_key_expires (expires_at)
) ENGINE = InnoDB;

-- Fires that failed for good, kept for an operator to replay or discard. A public table.
CREATE TABLE IF NOT EXISTS dsched_dead_letter (
    id              BIGINT AUTO_INCREMENT PRIMARY KEY,
    job_name        VARCHAR(200)  NOT NULL,
    scheduled_at    DATETIME(3) NOT NULL,
    idempotency_key VARCHAR(255)  NOT NULL,
    attempts        INTEGER       NOT NULL,
    execution_id    BIGINT        NOT NULL,
    error_class     VARCHAR(500),
    error_message   VARCHAR(2000),
    stack_trace     MEDIUMTEXT,
    payload         MEDIUMTEXT,
    first_failed_at DATETIME(3) NOT NULL,
    last_failed_at  DATETIME(3) NOT NULL,
    node_id         VARCHAR(200)  NOT NULL,
    status          VARCHAR(20)   NOT NULL,
    acted_by        VARCHAR(200),
    acted_reason    VARCHAR(1000),
    acted_at        DATETIME(3),
    CONSTRAINT uk_dsched_dead_letter_fire UNIQUE (idempotency_key, attempts),
    INDEX idx_dsched_dead_letter_open (status, job_name, last_failed_at)
) ENGINE = InnoDB;

-- The nodes of the cluster and when each was last seen alive, in database time.
CREATE TABLE IF NOT EXISTS dsched_node (
    node_id    VARCHAR(200) NOT NULL,
    started_at DATETIME(3) NOT NULL,
    last_seen  DATETIME(3) NOT NULL,
    PRIMARY KEY (node_id)
) ENGINE = InnoDB;

-- Each node's clock offset from database time (node minus database, in milliseconds), measured at
-- every heartbeat; a table of its own so that an existing dsched_node needs no new column.
CREATE TABLE IF NOT EXISTS dsched_node_clock (
    node_id     VARCHAR(200) NOT NULL,
    offset_ms   BIGINT       NOT NULL,
    measured_at DATETIME(3) NOT NULL,
    PRIMARY KEY (node_id)
) ENGINE = InnoDB;

-- One row per one-off handler with cluster-wide limits (maxConcurrent, rate): the nodes claim the
-- handler's attempts under the lock of its row, count those running, take tokens from its bucket,
-- and go by the limits the row holds: those an admin set at run time, or else those the node that
-- started last wrote.
CREATE TABLE IF NOT EXISTS dsched_limit (
    name           VARCHAR(200) NOT NULL PRIMARY KEY,
    max_concurrent INTEGER      NOT NULL,
    rate_permits   INTEGER      NOT NULL,
    rate_period_ms BIGINT       NOT NULL,
    tokens         DOUBLE NOT NULL,
    refilled_at    DATETIME(3) NOT NULL,
    created_at     DATETIME(3) NOT NULL,
    -- who set the limits at run time (through the endpoint), and when; NULL while they are the
    -- declared ones, which the nodes then write
    set_by         VARCHAR(200),
    set_at         DATETIME(3),
    -- the quota: at most quota_permits attempts claimed in each window of quota_period_ms, the
    -- windows counted from the epoch; quota_used of them in the window numbered quota_window
    quota_permits   INTEGER NOT NULL DEFAULT 0,
    quota_period_ms BIGINT  NOT NULL DEFAULT 0,
    quota_window    BIGINT  NOT NULL DEFAULT 0,
    quota_used      INTEGER NOT NULL DEFAULT 0,
    -- an adaptive limit: the most running at once it allows now (0 while it does not adapt), when
    -- its window began, and the outcomes, failures and overload signals counted in that window
    adaptive_max    INTEGER NOT NULL DEFAULT 0,
    adapted_at      DATETIME(3),
    window_outcomes INTEGER NOT NULL DEFAULT 0,
    window_failures INTEGER NOT NULL DEFAULT 0,
    window_signals  INTEGER NOT NULL DEFAULT 0,
    -- the rule it adapts by (@Adaptive), as the node that wrote its declaration last declares it;
    -- a ratio of 0 for a fixed limit
    adaptive_ratio        DOUBLE NOT NULL DEFAULT 0,
    adaptive_window_ms    BIGINT  NOT NULL DEFAULT 0,
    adaptive_min_outcomes INTEGER NOT NULL DEFAULT 0,
    adaptive_min          INTEGER NOT NULL DEFAULT 0,
    -- the rate of each key (keyRate): a bucket of key_rate_permits per key_rate_period_ms, each
    -- key's kept in dsched_limit_key
    key_rate_permits   INTEGER NOT NULL DEFAULT 0,
    key_rate_period_ms BIGINT  NOT NULL DEFAULT 0
) ENGINE = InnoDB;

-- The buckets of the rate of each key of a handler (keyRate with partitionBy): one row a key,
-- written under the lock of the handler's row in dsched_limit by the claims, which delete a key's
-- row once its bucket is full again (a key without a row has a full bucket).
CREATE TABLE IF NOT EXISTS dsched_limit_key (
    name        VARCHAR(200) NOT NULL,
    limit_key   VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    tokens      DOUBLE NOT NULL,
    refilled_at DATETIME(3) NOT NULL,
    PRIMARY KEY (name, limit_key)
) ENGINE = InnoDB;

-- The node groups each node serves (dsched.node.groups), written when the node joins and removed
-- with it: a group no live node serves is stalled, and its attempts wait.
CREATE TABLE IF NOT EXISTS dsched_node_group (
    node_id       VARCHAR(200) NOT NULL,
    group_name    VARCHAR(60)  NOT NULL,
    registered_at DATETIME(3) NOT NULL,
    PRIMARY KEY (node_id, group_name)
) ENGINE = InnoDB;

-- Recurring jobs defined at run time through the JobScheduler API, each running a @JobHandler.
CREATE TABLE IF NOT EXISTS dsched_job (
    name        VARCHAR(200) NOT NULL,
    handler     VARCHAR(200) NOT NULL,
    cron        VARCHAR(120),
    zone        VARCHAR(80),
    interval_ms BIGINT,
    params      MEDIUMTEXT,
    misfire     VARCHAR(20)  NOT NULL,
    -- the shards of each fire and the parameter of each shard that has one (a JSON object by
    -- index), for a sharded job; none for the others
    shards      INTEGER,
    shard_params MEDIUMTEXT,
    created_at  DATETIME(3) NOT NULL,
    updated_at  DATETIME(3) NOT NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB;

-- The shard count and parameters an admin set at run time for a sharded job (through the
-- endpoint), which its fires written since have in place of its declaration's, until reset.
CREATE TABLE IF NOT EXISTS dsched_job_shards (
    job_name     VARCHAR(200) NOT NULL,
    shard_count  INTEGER      NOT NULL,
    -- the parameter of each shard that has one, as a JSON object by index
    shard_params MEDIUMTEXT,
    set_by       VARCHAR(200) NOT NULL,
    set_at       DATETIME(3) NOT NULL,
    PRIMARY KEY (job_name)
) ENGINE = InnoDB;

-- Every write asked of the management endpoint, granted or refused. A public table; dsched only
-- ever adds to it.
CREATE TABLE IF NOT EXISTS dsched_audit (
    id             BIGINT AUTO_INCREMENT PRIMARY KEY,
    acted_at       DATETIME(3)   NOT NULL,
    actor          VARCHAR(200)  NOT NULL,
    action         VARCHAR(60)   NOT NULL,
    target         VARCHAR(1000),
    before_value   MEDIUMTEXT,
    after_value    MEDIUMTEXT,
    reason         VARCHAR(1000),
    remote_address VARCHAR(100),
    result         INTEGER       NOT NULL,
    detail         VARCHAR(1000),
    node_id        VARCHAR(200)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- What each attempt logged on its thread (capped) and the stack trace it failed with: a row
-- only for an attempt that logged something or failed, deleted together with its attempt.
-- utf8mb4 whatever the server's default: a log line may hold any character. By created_at,
-- housekeeping looks for the logs of attempts deleted otherwise than by it.
CREATE TABLE IF NOT EXISTS dsched_execution_log (
    execution_id BIGINT       NOT NULL PRIMARY KEY,
    job_name     VARCHAR(200) NOT NULL,
    log_lines    LONGTEXT,
    stack_trace  MEDIUMTEXT,
    truncated    BOOLEAN      NOT NULL,
    created_at   DATETIME(3)  NOT NULL,
    INDEX idx_dsched_execution_log_created (created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

-- The trace context a one-off job or a run triggered by hand was submitted in, by its fire's
-- idempotency key, so that every attempt of the fire continues that trace. Written only while
-- tracing is on; housekeeping deletes a row once the fire's attempts are gone.
CREATE TABLE IF NOT EXISTS dsched_execution_trace (
    idempotency_key VARCHAR(255)  NOT NULL,
    carrier         VARCHAR(1000) NOT NULL,
    created_at      DATETIME(3) NOT NULL,
    PRIMARY KEY (idempotency_key),
    INDEX idx_dsched_execution_trace_created (created_at)
) ENGINE = InnoDB;

-- An operator's request to stop a running attempt, by its execution id: the node running the
-- attempt reads the requests of its running attempts, flags each job's context and, after the
-- grace, interrupts it. Housekeeping deletes a request once its attempt has ended and the
-- history's retention has passed.
CREATE TABLE IF NOT EXISTS dsched_cancel_request (
    execution_id    BIGINT       NOT NULL,
    requested_at    DATETIME(3)  NOT NULL,
    requested_by    VARCHAR(200) NOT NULL,
    PRIMARY KEY (execution_id),
    INDEX idx_dsched_cancel_request_at (requested_at)
) ENGINE = InnoDB;
