package io.dsched.autoconfigure;

import io.dsched.internal.execution.NodeGroups;
import io.dsched.notify.Notification;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of dsched, under the prefix {@code dsched}.
 */
@ConfigurationProperties("dsched")
public class DschedProperties {

    /** Whether to run distributed scheduled jobs on this node. */
    private boolean enabled = true;

    /**
     * Identity of this node in the cluster; must be unique among running nodes. Defaults to the host
     * name followed by a random suffix.
     */
    private String nodeId;

    /**
     * Number of threads that run jobs on this node: virtual threads when
     * spring.threads.virtual.enabled is set on Java 21 or later, else platform threads.
     */
    private int threads = 10;

    /**
     * Whether this node runs jobs. A node with false still declares, submits and manages jobs
     * and takes part in recovery, but runs none: a web tier that only submits work.
     */
    private boolean runJobs = true;

    private final Node node = new Node();

    private final Cluster cluster = new Cluster();

    private final Lock lock = new Lock();

    private final Jdbc jdbc = new Jdbc();

    private final Jobs jobs = new Jobs();

    private final Shutdown shutdown = new Shutdown();

    private final Retry retry = new Retry();

    private final Recovery recovery = new Recovery();

    private final Queue queue = new Queue();

    private final Execution execution = new Execution();

    private final History history = new History();

    private final Metrics metrics = new Metrics();

    private final Management management = new Management();

    private final Notify notify = new Notify();
    private final Logs logs = new Logs();

    private final Observation observation = new Observation();

    public boolean isEnabled() {
        return this.enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getNodeId() {
        return this.nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public boolean isRunJobs() {
        return this.runJobs;
    }

    public void setRunJobs(boolean runJobs) {
        this.runJobs = runJobs;
    }

    public int getThreads() {
        return this.threads;
    }

    public void setThreads(int threads) {
        this.threads = threads;
    }

    public Node getNode() {
        return this.node;
    }

    public Cluster getCluster() {
        return this.cluster;
    }

    public Lock getLock() {
        return this.lock;
    }

    public Jdbc getJdbc() {
        return this.jdbc;
    }

    public Jobs getJobs() {
        return this.jobs;
    }

    public Shutdown getShutdown() {
        return this.shutdown;
    }

    public Retry getRetry() {
        return this.retry;
    }

    public Recovery getRecovery() {
        return this.recovery;
    }

    public Queue getQueue() {
        return this.queue;
    }

    public Execution getExecution() {
        return this.execution;
    }

    public History getHistory() {
        return this.history;
    }

    public Metrics getMetrics() {
        return this.metrics;
    }

    public Management getManagement() {
        return this.management;
    }

    public Notify getNotify() {
        return this.notify;
    }

    /** Notifications of dead letters and failure streaks. */
    public static class Notify {

        /**
         * How many fires of a job in a row must fail on one node to raise a failure-streak
         * notification; raised once per streak, which a success of the job ends.
         */
        private int failureStreak = 3;

        private final Webhook webhook = new Webhook();

        public int getFailureStreak() {
            return this.failureStreak;
        }

        public void setFailureStreak(int failureStreak) {
            this.failureStreak = failureStreak;
        }

        public Webhook getWebhook() {
            return this.webhook;
        }

        /** The webhook that notifications are posted to as signed JSON. */
        public static class Webhook {

            /** URL to post notifications to; no webhook when not set. */
            private URI url;

            /**
             * Secret shared with the receiver, which signs each request in the X-Dsched-Signature
             * header; required with a url.
             */
            private String secret;

            /** Kinds of notification to post (dead-lettered, failure-streak). */
            private Set<Notification.Kind> events = EnumSet.allOf(Notification.Kind.class);

            /** Longest time one request may take. */
            private Duration timeout = Duration.ofSeconds(5);

            /** Maximum number of requests for one notification, the first included. */
            private int maxAttempts = 5;

            /** Wait before the second request for a notification; doubled for each further one. */
            private Duration initialBackoff = Duration.ofSeconds(1);

            public URI getUrl() {
                return this.url;
            }

            public void setUrl(URI url) {
                this.url = url;
            }

            public String getSecret() {
                return this.secret;
            }

            public void setSecret(String secret) {
                this.secret = secret;
            }

            public Set<Notification.Kind> getEvents() {
                return this.events;
            }

            public void setEvents(Set<Notification.Kind> events) {
                this.events = events;
            }

            public Duration getTimeout() {
                return this.timeout;
            }

            public void setTimeout(Duration timeout) {
                this.timeout = timeout;
            }

            public int getMaxAttempts() {
                return this.maxAttempts;
            }

            public void setMaxAttempts(int maxAttempts) {
                this.maxAttempts = maxAttempts;
            }

            public Duration getInitialBackoff() {
                return this.initialBackoff;
            }

            public void setInitialBackoff(Duration initialBackoff) {
                this.initialBackoff = initialBackoff;
            }
        }
    }

    public Logs getLogs() {
        return this.logs;
    }

    /** What each attempt logs, captured and kept with its execution. */
    public static class Logs {

        /**
         * Whether to capture the lines each attempt logs on its own thread and keep them in
         * dsched_execution_log (with Logback, Spring Boot's default logging).
         */
        private boolean capture = true;

        /** Least level of the lines captured; a line must pass its logger's level as well. */
        private LogLevel level = LogLevel.INFO;

        /**
         * Most text kept per attempt; of a longer log, the first part is kept and marked as
         * truncated.
         */
        private DataSize maxSize = DataSize.ofKilobytes(64);

        public boolean isCapture() {
            return this.capture;
        }

        public void setCapture(boolean capture) {
            this.capture = capture;
        }

        public LogLevel getLevel() {
            return this.level;
        }

        public void setLevel(LogLevel level) {
            this.level = level;
        }

        public DataSize getMaxSize() {
            return this.maxSize;
        }

        public void setMaxSize(DataSize maxSize) {
            this.maxSize = maxSize;
        }
    }

    public Observation getObservation() {
        return this.observation;
    }

    /** The Micrometer observations of dsched, which a tracer turns into spans. */
    public static class Observation {

        /**
         * Whether to observe every attempt and every submission, and to store the trace context of
         * submitted jobs, when the application has an ObservationRegistry.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** The Micrometer meters of dsched. */
    public static class Metrics {

        /** Whether to publish dsched's meters when Micrometer is present. */
        private boolean enabled = true;

        /**
         * How many nodes the cluster should have, published as dsched.cluster.nodes.expected for
         * the alert on missing nodes; not published when not set.
         */
        private Integer expectedNodes;

        /** How long a cluster-wide gauge read from the database is reused before it is read again. */
        private Duration refresh = Duration.ofSeconds(10);

        public boolean isEnabled() {
            return this.enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Integer getExpectedNodes() {
            return this.expectedNodes;
        }

        public void setExpectedNodes(Integer expectedNodes) {
            this.expectedNodes = expectedNodes;
        }

        public Duration getRefresh() {
            return this.refresh;
        }

        public void setRefresh(Duration refresh) {
            this.refresh = refresh;
        }
    }

    /** What this node runs. */
    public static class Node {

        /**
         * Node groups this node serves: it runs the attempts of the jobs and handlers of these
         * groups alone, and fires of other groups' jobs wait for a node that serves them. A job or
         * handler names its group with the annotation's group attribute; one that names none is
         * in the default group.
         */
        private List<String> groups = new ArrayList<>(List.of(NodeGroups.DEFAULT));

        /**
         * Threads of a worker pool of its own for a group this node serves, so that a slow group
         * cannot take the threads of another (dsched.node.group-threads.reports=4): as many for
         * its fires as for its one-offs, retries and replays. A fire that finds all of them busy
         * waits in the queue for a free one on any node of the group. Groups not named, and
         * dsched's own jobs, share the dsched.threads of the node.
         */
        private Map<String, Integer> groupThreads = new LinkedHashMap<>();

        public List<String> getGroups() {
            return this.groups;
        }

        public void setGroups(List<String> groups) {
            this.groups = groups;
        }

        public Map<String, Integer> getGroupThreads() {
            return this.groupThreads;
        }

        public void setGroupThreads(Map<String, Integer> groupThreads) {
            this.groupThreads = groupThreads;
        }
    }

    /** Cluster membership and trigger acquisition. */
    public static class Cluster {

        /**
         * Name of the cluster: nodes of one name share their jobs, and clusters of other names on
         * the same database share nothing. A name other than 'dsched' leads the names of the
         * cluster's own tables ('billing' uses billing_dsched_execution and so on); it must be a
         * lower-case letter followed by up to 19 lower-case letters, digits or underscores.
         */
        private String name = "dsched";

        /**
         * How often a node checks in with Quartz's cluster store. Whether a node is dead, and its
         * fires are recovered, is decided by dsched.recovery.node-timeout in database time, not by
         * check-in times, which each node writes with its own clock.
         */
        private Duration checkinInterval = Duration.ofSeconds(5);

        /**
         * Largest offset, either way, of a node's clock from the database's at which the node
         * still takes fires; past it the node warns, reports it in its health and the endpoint,
         * and takes no fires (other nodes do) until its clock is back within bounds.
         */
        private Duration maxClockSkew = Duration.ofSeconds(2);

        /** Longest time a node idles before it looks for due triggers again (at least 1s). */
        private Duration idleWait = Duration.ofSeconds(1);

        /** How late a fire may start before it counts as misfired and follows the misfire policy. */
        private Duration misfireThreshold = Duration.ofSeconds(60);

        /**
         * How long before its time a fire of a recurring job is recorded and claimed, so that at
         * its time a worker only starts the job; 0 records each fire at its time. A fire recorded
         * ahead runs even if its job is paused in that lead, as a running one would. Needs
         * skip-locked acquisition (PostgreSQL, MariaDB); H2 records each fire at its time.
         */
        private Duration fireAhead = Duration.ofSeconds(1);

        /**
         * Most fires a node holds at once, waiting for their time or running, when it fires ahead
         * (at least dsched.threads and the dsched.node.group-threads). A node takes only its share
         * of the fires due soon, and none while all its workers are busy.
         */
        private int fireAheadMax = 500;

        /**
         * How long each group of the writes that can wait (the outcomes of attempts that
         * succeeded, one-offs' too, and on PostgreSQL Quartz's records that fires are complete)
         * waits while fires of this node are due and no worker has started them yet, so that when
         * many fall due at once the database serves their starts first; 0 writes at once.
         * Meanwhile a succeeded attempt stays RUNNING and its job's guard and triggers stay held; a
         * run of the job on the node that needs the guard has the success written at once, and so
         * do more than 512 successes or 400 completions waiting.
         */
        private Duration writesWaitForStarts = Duration.ofMillis(250);

        public Duration getFireAhead() {
            return this.fireAhead;
        }

        public void setFireAhead(Duration fireAhead) {
            this.fireAhead = fireAhead;
        }

        public int getFireAheadMax() {
            return this.fireAheadMax;
        }

        public void setFireAheadMax(int fireAheadMax) {
            this.fireAheadMax = fireAheadMax;
        }

        public Duration getWritesWaitForStarts() {
            return this.writesWaitForStarts;
        }

        public void setWritesWaitForStarts(Duration writesWaitForStarts) {
            this.writesWaitForStarts = writesWaitForStarts;
        }

        /**
         * Whether nodes acquire, fire and complete triggers row by row with SELECT ... FOR UPDATE
         * SKIP LOCKED (PostgreSQL, MariaDB 10.6+, and MySQL 8, not yet tested) instead of one at a
         * time under Quartz's cluster-wide TRIGGER_ACCESS lock. Always false on H2.
         */
        private boolean skipLocked = true;

        public boolean isSkipLocked() {
            return this.skipLocked;
        }

        public void setSkipLocked(boolean skipLocked) {
            this.skipLocked = skipLocked;
        }

        public String getName() {
            return this.name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public Duration getCheckinInterval() {
            return this.checkinInterval;
        }

        public void setCheckinInterval(Duration checkinInterval) {
            this.checkinInterval = checkinInterval;
        }

        public Duration getIdleWait() {
            return this.idleWait;
        }

        public void setIdleWait(Duration idleWait) {
            this.idleWait = idleWait;
        }

        public Duration getMaxClockSkew() {
            return this.maxClockSkew;
        }

        public void setMaxClockSkew(Duration maxClockSkew) {
            this.maxClockSkew = maxClockSkew;
        }

        public Duration getMisfireThreshold() {
            return this.misfireThreshold;
        }

        public void setMisfireThreshold(Duration misfireThreshold) {
            this.misfireThreshold = misfireThreshold;
        }
    }

    /** The overlap guard of jobs that must not run concurrently. */
    public static class Lock {

        /**
         * Default longest time a run holds its job's lock, even if its node dies; a job's own
         * lockAtMostFor wins.
         */
        private Duration atMostFor = Duration.ofMinutes(10);

        /** Default shortest time a run holds its job's lock; a job's own lockAtLeastFor wins. */
        private Duration atLeastFor = Duration.ZERO;

        public Duration getAtMostFor() {
            return this.atMostFor;
        }

        public void setAtMostFor(Duration atMostFor) {
            this.atMostFor = atMostFor;
        }

        public Duration getAtLeastFor() {
            return this.atLeastFor;
        }

        public void setAtLeastFor(Duration atLeastFor) {
            this.atLeastFor = atLeastFor;
        }
    }

    /** The database dsched stores its state in. */
    public static class Jdbc {

        /** When to create dsched's tables that are missing; existing tables are never dropped. */
        private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

        /**
         * Platform of the schema script to apply (postgresql, mysql or h2); detected from the
         * DataSource when not set.
         */
        private String platform;

        public DatabaseInitializationMode getInitializeSchema() {
            return this.initializeSchema;
        }

        public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
            this.initializeSchema = initializeSchema;
        }

        public String getPlatform() {
            return this.platform;
        }

        public void setPlatform(String platform) {
            this.platform = platform;
        }
    }

    /** How annotation-declared jobs reach the shared store. */
    public static class Jobs {

        /**
         * Whether a node may re-apply a job definition that a newer deployment has already
         * replaced; turn on for a deliberate rollback.
         */
        private boolean reapplySuperseded = false;

        /**
         * Whether a declared job that no node declares any more (removed, renamed or set to "-")
         * is removed from the cluster.
         */
        private boolean removeUndeclared = true;

        /**
         * How long, past the node timeout, no node may have declared a job, and the newest
         * deployment must have been the newest, before the job is removed; by default
         * dsched.recovery.node-timeout.
         */
        private Duration removalGrace;

        /**
         * How long the record of a deployment that is not the newest is kept after its last node
         * started, the record of a removed job after its removal, and a job definition that no
         * deployment still recorded can run after it came into force; a node of a deployment
         * forgotten longer ago counts as a new deployment.
         */
        private Duration deploymentRetention = Duration.ofDays(365);

        public boolean isRemoveUndeclared() {
            return this.removeUndeclared;
        }

        public void setRemoveUndeclared(boolean removeUndeclared) {
            this.removeUndeclared = removeUndeclared;
        }

        public Duration getRemovalGrace() {
            return this.removalGrace;
        }

        public void setRemovalGrace(Duration removalGrace) {
            this.removalGrace = removalGrace;
        }

        public Duration getDeploymentRetention() {
            return this.deploymentRetention;
        }

        public void setDeploymentRetention(Duration deploymentRetention) {
            this.deploymentRetention = deploymentRetention;
        }

        public boolean isReapplySuperseded() {
            return this.reapplySuperseded;
        }

        public void setReapplySuperseded(boolean reapplySuperseded) {
            this.reapplySuperseded = reapplySuperseded;
        }
    }

    /** How a node stops. */
    public static class Shutdown {

        /** Whether to let running jobs finish when the node stops. */
        private boolean waitForJobs = true;

        /**
         * Longest time a stopping node waits for its running jobs; a job still running then is
         * taken over by another node.
         */
        private Duration timeout = Duration.ofSeconds(30);

        public boolean isWaitForJobs() {
            return this.waitForJobs;
        }

        public void setWaitForJobs(boolean waitForJobs) {
            this.waitForJobs = waitForJobs;
        }

        public Duration getTimeout() {
            return this.timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** The {@code dsched} Actuator endpoint. */
    public static class Management {

        /** Role that may read through the endpoint. */
        private String viewerRole = "DSCHED_VIEWER";

        /** Role that may also pause, resume and trigger jobs, cancel executions and replay or discard dead letters. */
        private String operatorRole = "DSCHED_OPERATOR";

        /** Role that may also change jobs' schedules and parameters. */
        private String adminRole = "DSCHED_ADMIN";

        /**
         * Whether to offer the endpoint's write operations to anyone who can reach it when Spring
         * Security is not on the class path.
         */
        private boolean unsecuredWrites = false;

        /**
         * When the endpoint shows payloads, parameters, captured log lines and stack traces instead
         * of masking them: never, when-authorized (to the operator role and above, with Spring
         * Security) or always.
         */
        private ShowValues showValues = ShowValues.WHEN_AUTHORIZED;

        /**
         * Further keys whose values the endpoint and the audit log mask in payloads and parameters
         * even when values are shown, as regular expressions that match the whole key, ignoring
         * case.
         */
        private List<String> additionalKeysToSanitize = new ArrayList<>();

        /** How long the audit log's entries are kept before the housekeeping job deletes them. */
        private Duration auditRetention = Duration.ofDays(90);

        public Duration getAuditRetention() {
            return this.auditRetention;
        }

        public void setAuditRetention(Duration auditRetention) {
            this.auditRetention = auditRetention;
        }

        public String getViewerRole() {
            return this.viewerRole;
        }

        public void setViewerRole(String viewerRole) {
            this.viewerRole = viewerRole;
        }

        public String getOperatorRole() {
            return this.operatorRole;
        }

        public void setOperatorRole(String operatorRole) {
            this.operatorRole = operatorRole;
        }

        public String getAdminRole() {
            return this.adminRole;
        }

        public void setAdminRole(String adminRole) {
            this.adminRole = adminRole;
        }

        public boolean isUnsecuredWrites() {
            return this.unsecuredWrites;
        }

        public void setUnsecuredWrites(boolean unsecuredWrites) {
            this.unsecuredWrites = unsecuredWrites;
        }

        public ShowValues getShowValues() {
            return this.showValues;
        }

        public void setShowValues(ShowValues showValues) {
            this.showValues = showValues;
        }

        public List<String> getAdditionalKeysToSanitize() {
            return this.additionalKeysToSanitize;
        }

        public void setAdditionalKeysToSanitize(List<String> additionalKeysToSanitize) {
            this.additionalKeysToSanitize = additionalKeysToSanitize;
        }

        /** When values are shown, as Spring Boot's {@code management.endpoint.env.show-values}. */
        public enum ShowValues {

            /** Never: every caller sees them masked. */
            NEVER,

            /** To a caller with the operator role or above; never without Spring Security. */
            WHEN_AUTHORIZED,

            /** To every caller who may read. */
            ALWAYS
        }
    }

    /** Defaults of {@code @Retry} for jobs that do not set an attribute. */
    public static class Retry {

        /** How many times to retry a failed attempt before the fire is dead-lettered. */
        private int maxRetries = 3;

        /** Wait before the first retry. */
        private Duration delay = Duration.ofSeconds(1);

        /** Factor the wait grows by from one retry to the next. */
        private double multiplier = 2;

        /** Longest wait between two attempts. */
        private Duration maxDelay = Duration.ofMinutes(5);

        /** Largest random amount added to or taken from each wait. */
        private Duration jitter = Duration.ofMillis(100);

        public int getMaxRetries() {
            return this.maxRetries;
        }

        public void setMaxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
        }

        public Duration getDelay() {
            return this.delay;
        }

        public void setDelay(Duration delay) {
            this.delay = delay;
        }

        public double getMultiplier() {
            return this.multiplier;
        }

        public void setMultiplier(double multiplier) {
            this.multiplier = multiplier;
        }

        public Duration getMaxDelay() {
            return this.maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public Duration getJitter() {
            return this.jitter;
        }

        public void setJitter(Duration jitter) {
            this.jitter = jitter;
        }
    }

    /** Detecting dead nodes and re-running the work they had in flight. */
    public static class Recovery {

        /** How often a node records, in database time, that it is alive. */
        private Duration heartbeatInterval = Duration.ofSeconds(2);

        /**
         * How long a node may go unseen before it is declared dead and its running attempts are run
         * again elsewhere; a stall shorter than this is not a death.
         */
        private Duration nodeTimeout = Duration.ofSeconds(10);

        public Duration getHeartbeatInterval() {
            return this.heartbeatInterval;
        }

        public void setHeartbeatInterval(Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
        }

        public Duration getNodeTimeout() {
            return this.nodeTimeout;
        }

        public void setNodeTimeout(Duration nodeTimeout) {
            this.nodeTimeout = nodeTimeout;
        }
    }

    /** Running attempts, and how they are stopped on request. */
    public static class Execution {

        /**
         * How often a node that runs attempts reads the requests to stop them; the longest a
         * cooperative job waits before its context reports it cancelled.
         */
        private Duration cancelPollInterval = Duration.ofMillis(250);

        /**
         * How long a job asked to stop has to end on its own before its thread is interrupted.
         */
        private Duration cancelGrace = Duration.ofSeconds(1);

        public Duration getCancelPollInterval() {
            return this.cancelPollInterval;
        }

        public void setCancelPollInterval(Duration cancelPollInterval) {
            this.cancelPollInterval = cancelPollInterval;
        }

        public Duration getCancelGrace() {
            return this.cancelGrace;
        }

        public void setCancelGrace(Duration cancelGrace) {
            this.cancelGrace = cancelGrace;
        }
    }

    /** What carries the notices of due attempts to the other nodes. */
    public enum NotifyThrough {
        /** PostgreSQL's NOTIFY; on other databases, no notices to other nodes. */
        DATABASE,
        /** Redis's pub/sub, through the application's RedisConnectionFactory. */
        REDIS
    }

    /** The queue of waiting attempts: retries, recoveries, replays, triggers and one-off jobs. */
    public static class Queue {

        /** How often a node looks for waiting attempts that have fallen due. */
        private Duration pollInterval = Duration.ofMillis(500);

        /**
         * Whether to claim due attempts in batches with SELECT ... FOR UPDATE SKIP LOCKED
         * (PostgreSQL, MariaDB 10.6+, and MySQL 8, not yet tested). When false, and always on H2,
         * each attempt is claimed by a conditional update.
         */
        private boolean skipLocked = true;

        /**
         * Whether a submission, a replay, a trigger by hand or a sharded fire's shards on PostgreSQL sends a NOTIFY once it
         * is committed, which wakes the queue of every node that runs the job at once instead of at
         * its next poll. Each node running jobs keeps one connection of its pool listening. A node
         * whose probes do not come back (behind a pooler in transaction mode) polls alone, by
         * itself. On other databases only the submitting node is woken at once, unless notices go
         * through Redis (notify-through).
         */
        private boolean notify = true;

        /**
         * What carries the notices of due attempts: the database (PostgreSQL's NOTIFY; nothing on
         * MySQL, MariaDB and H2), or Redis's pub/sub through the application's
         * RedisConnectionFactory (Spring Data Redis), on any database.
         */
        private NotifyThrough notifyThrough = NotifyThrough.DATABASE;

        public boolean isNotify() {
            return this.notify;
        }

        public void setNotify(boolean notify) {
            this.notify = notify;
        }

        public NotifyThrough getNotifyThrough() {
            return this.notifyThrough;
        }

        public void setNotifyThrough(NotifyThrough notifyThrough) {
            this.notifyThrough = notifyThrough;
        }

        public boolean isSkipLocked() {
            return this.skipLocked;
        }

        public void setSkipLocked(boolean skipLocked) {
            this.skipLocked = skipLocked;
        }

        public Duration getPollInterval() {
            return this.pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }
    }

    /** The execution history and its housekeeping. */
    public static class History {

        /**
         * How long finished attempts and closed dead letters are kept, and with them captured logs,
         * trace contexts and requests to stop attempts, the rows of nodes gone, and the lock rows of
         * removed jobs free for as long.
         */
        private Duration retention = Duration.ofDays(14);

        /**
         * How long a dead letter that nobody replayed or discarded is kept after its last failure
         * before housekeeping deletes it; when not set, until someone does.
         */
        private Duration openDeadLetterRetention;

        public Duration getOpenDeadLetterRetention() {
            return this.openDeadLetterRetention;
        }

        public void setOpenDeadLetterRetention(Duration openDeadLetterRetention) {
            this.openDeadLetterRetention = openDeadLetterRetention;
        }

        /**
         * How long an attempt may wait past its due time for a node that runs it (of a job no node
         * declares any more, say) before housekeeping cancels it.
         */
        private Duration waitingRetention = Duration.ofDays(14);

        public Duration getWaitingRetention() {
            return this.waitingRetention;
        }

        public void setWaitingRetention(Duration waitingRetention) {
            this.waitingRetention = waitingRetention;
        }

        /** When the cluster-wide housekeeping job deletes older history (Spring cron, UTC). */
        private String cleanupCron = "0 */10 * * * *";

        /** How many rows one delete statement removes at most. */
        private int batchSize = 1000;

        /**
         * How long housekeeping rests after each full batch of a purge, so that the claims and
         * outcomes that commit beside a long one do not queue behind one delete after another.
         */
        private Duration batchPause = Duration.ofMillis(20);

        public Duration getBatchPause() {
            return this.batchPause;
        }

        public void setBatchPause(Duration batchPause) {
            this.batchPause = batchPause;
        }

        public Duration getRetention() {
            return this.retention;
        }

        public void setRetention(Duration retention) {
            this.retention = retention;
        }

        public String getCleanupCron() {
            return this.cleanupCron;
        }

        public void setCleanupCron(String cleanupCron) {
            this.cleanupCron = cleanupCron;
        }

        public int getBatchSize() {
            return this.batchSize;
        }

        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }
    }
}
