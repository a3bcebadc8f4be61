package io.dsched.quartz.contract;

import io.dsched.quartz.ClusterJobStore;
import io.dsched.quartz.FireClaims;
import io.dsched.quartz.SkipLockedDelegates;
import io.dsched.quartz.SkipLockedJobStore;
import io.dsched.quartz.SpringCronTriggerPersistenceDelegate;
import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.StoreHooks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;

/**
 * Nodes of one clustered Quartz scheduler in this JVM, each a plain Quartz scheduler made by
 * {@code StdSchedulerFactory} from properties, with a HikariCP pool of its own, on one database.
 * The scheduler's name is the test's own, so that tests share the tables but no rows.
 */
final class TestCluster implements AutoCloseable {

    /** The job store a node runs. */
    enum Store {
        /** dsched's skip-locked store with the database's skip-locked delegate. */
        SKIP_LOCKED,
        /** dsched's store on Quartz's locking, acquiring under the lock. */
        CLUSTER,
        /** Quartz's own {@code JobStoreTX}, acquiring under the lock: the control. */
        STOCK
    }

    final TestDatabase database;

    final String prefix;

    final String name;

    private final List<Scheduler> nodes = new ArrayList<>();

    TestCluster(TestDatabase database, String prefix, String test) {
        this.database = database;
        this.prefix = prefix;
        this.name = test + "-" + UUID.randomUUID().toString().substring(0, 8);
        database.createTables(prefix);
    }

    Node node(String id, Store store) {
        return new Node(id, store);
    }

    /**
     * Reads one number with a statement whose {@code ?}s take the scheduler's name first, then the
     * arguments; {@code {P}} in the statement is the tables' prefix.
     */
    long count(String sql, Object... arguments) {
        try (Connection conn = this.database.connect();
                PreparedStatement statement = conn.prepareStatement(sql.replace("{P}", this.prefix))) {
            statement.setString(1, this.name);
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 2, arguments[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The state of a trigger in the store's table, as Quartz writes it (WAITING, ACQUIRED, BLOCKED, ...). */
    String state(TriggerKey trigger) {
        try (Connection conn = this.database.connect();
                PreparedStatement statement = conn.prepareStatement("SELECT TRIGGER_STATE FROM " + this.prefix
                        + "TRIGGERS WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ?")) {
            statement.setString(1, this.name);
            statement.setString(2, trigger.getName());
            statement.setString(3, trigger.getGroup());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Writes a trigger's state in the store's table, for a test of what a completion must leave alone. */
    void state(TriggerKey trigger, String state) {
        try (Connection conn = this.database.connect();
                PreparedStatement statement = conn.prepareStatement(
                        "UPDATE " + this.prefix
                                + "TRIGGERS SET TRIGGER_STATE = ? WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ?")) {
            statement.setString(1, state);
            statement.setString(2, this.name);
            statement.setString(3, trigger.getName());
            statement.setString(4, trigger.getGroup());
            if (statement.executeUpdate() != 1) {
                throw new IllegalStateException("No trigger " + trigger);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Counts the fired-trigger records of a trigger in a state. */
    long fired(TriggerKey trigger, String state) {
        return count(
                "SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ?"
                        + " AND STATE = ?",
                trigger.getName(),
                trigger.getGroup(),
                state);
    }

    /** Counts the sessions that wait for a row lock on this suite's tables. */
    int sessionsWaitingForALock() {
        try (Connection conn = this.database.connect()) {
            return this.database.sessionsWaitingForALock(conn, this.prefix);
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Makes a node look dead to the others: its check-in a minute old. */
    void ageCheckIn(String node) {
        try (Connection conn = this.database.connect();
                PreparedStatement statement = conn.prepareStatement("UPDATE " + this.prefix
                        + "SCHEDULER_STATE SET LAST_CHECKIN_TIME = LAST_CHECKIN_TIME - 60000"
                        + " WHERE SCHED_NAME = ? AND INSTANCE_NAME = ?")) {
            statement.setString(1, this.name);
            statement.setString(2, node);
            statement.executeUpdate();
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Opens a transaction that holds Quartz's cluster-wide lock, the {@code TRIGGER_ACCESS} row of
     * the locks table, until the connection is rolled back or closed.
     */
    Connection holdTriggerAccess() throws SQLException {
        Connection conn = this.database.connect();
        conn.setAutoCommit(false);
        try (PreparedStatement select = conn.prepareStatement(
                "SELECT LOCK_NAME FROM " + this.prefix + "LOCKS WHERE SCHED_NAME = ? AND LOCK_NAME = ? FOR UPDATE")) {
            select.setString(1, this.name);
            select.setString(2, "TRIGGER_ACCESS");
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    try (PreparedStatement insert = conn.prepareStatement(
                            "INSERT INTO " + this.prefix + "LOCKS (SCHED_NAME, LOCK_NAME) VALUES (?, ?)")) {
                        insert.setString(1, this.name);
                        insert.setString(2, "TRIGGER_ACCESS");
                        insert.executeUpdate();
                    }
                }
            }
        }
        return conn;
    }

    @Override
    public void close() {
        for (Scheduler node : this.nodes) {
            try {
                if (!node.isShutdown()) {
                    node.shutdown(false);
                }
            } catch (SchedulerException ex) {
                // the next node
            }
        }
        this.database.deleteRows(this.prefix, this.name);
    }

    /** A node to create, with the settings it differs by. */
    final class Node {

        private final String id;

        private final Store store;

        private int threads = 4;

        private long idleWaitMillis = 1000;

        private long misfireThresholdMillis = 1000;

        private FireClaims claims;

        private StartBacklog backlog = StartBacklog.NONE;

        private boolean losingCommits;

        private long fireAheadMillis;

        private Node(String id, Store store) {
            this.id = id;
            this.store = store;
        }

        Node threads(int threads) {
            this.threads = threads;
            return this;
        }

        Node idleWait(long millis) {
            this.idleWaitMillis = millis;
            return this;
        }

        Node misfireThreshold(long millis) {
            this.misfireThresholdMillis = millis;
            return this;
        }

        Node claims(FireClaims claims) {
            this.claims = claims;
            return this;
        }

        /** The node's fires due and not started, which its grouped completions wait for. */
        Node backlog(StartBacklog backlog) {
            this.backlog = backlog;
            return this;
        }

        /** Fires triggers this long ahead of their time (the skip-locked store only). */
        Node fireAhead(long millis) {
            this.fireAheadMillis = millis;
            return this;
        }

        /** Connects through {@link LosingCommits}, whose commits can be told to lose their answer. */
        Node losingCommits() {
            this.losingCommits = true;
            return this;
        }

        /** Creates the node in standby. */
        Scheduler create() throws SchedulerException {
            Properties properties = properties();
            SchedulerRepository repository = SchedulerRepository.getInstance();
            Scheduler scheduler;
            synchronized (repository) {
                scheduler = StoreHooks.of(null, this.claims, this.backlog)
                        .installWhile(() -> new StdSchedulerFactory(properties).getScheduler());
                // several nodes of one scheduler name in one JVM: Quartz's repository would hand out one
                repository.remove(scheduler.getSchedulerName());
            }
            TestCluster.this.nodes.add(scheduler);
            return scheduler;
        }

        /** Creates and starts the node. */
        Scheduler start() throws SchedulerException {
            Scheduler scheduler = create();
            scheduler.start();
            return scheduler;
        }

        private Properties properties() {
            // a data source name may not hold a dot: Quartz reads its properties up to the next one
            String dataSource = TestCluster.this.name + "_" + this.id;
            Properties p = new Properties();
            p.setProperty("org.quartz.scheduler.instanceName", TestCluster.this.name);
            p.setProperty("org.quartz.scheduler.instanceId", this.id);
            p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
            p.setProperty("org.quartz.scheduler.idleWaitTime", String.valueOf(this.idleWaitMillis));
            p.setProperty("org.quartz.scheduler.batchTriggerAcquisitionMaxCount", String.valueOf(this.threads));
            p.setProperty("org.quartz.scheduler.makeSchedulerThreadDaemon", "true");
            p.setProperty("org.quartz.threadPool.threadCount", String.valueOf(this.threads));
            p.setProperty("org.quartz.threadPool.threadNamePrefix", this.id + "-worker");
            p.setProperty("org.quartz.threadPool.makeThreadsDaemons", "true");
            p.setProperty("org.quartz.jobStore.class", storeClass().getName());
            p.setProperty(
                    "org.quartz.jobStore.driverDelegateClass", delegateClass().getName());
            p.setProperty(
                    "org.quartz.jobStore.driverDelegateInitString",
                    "triggerPersistenceDelegateClasses=" + SpringCronTriggerPersistenceDelegate.class.getName());
            p.setProperty("org.quartz.jobStore.tablePrefix", TestCluster.this.prefix);
            p.setProperty("org.quartz.jobStore.isClustered", "true");
            p.setProperty("org.quartz.jobStore.clusterCheckinInterval", "500");
            p.setProperty("org.quartz.jobStore.misfireThreshold", String.valueOf(this.misfireThresholdMillis));
            p.setProperty("org.quartz.jobStore.useProperties", "true");
            p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
            p.setProperty("org.quartz.scheduler.dbFailureRetryInterval", "500");
            p.setProperty("org.quartz.jobStore.dataSource", dataSource);
            if (this.fireAheadMillis > 0) {
                p.setProperty("org.quartz.jobStore.fireAheadMillis", String.valueOf(this.fireAheadMillis));
            }
            if (this.losingCommits) {
                p.setProperty(
                        "org.quartz.dataSource." + dataSource + ".connectionProvider.class",
                        LosingCommits.class.getName());
            } else {
                p.setProperty("org.quartz.dataSource." + dataSource + ".provider", "hikaricp");
            }
            p.setProperty("org.quartz.dataSource." + dataSource + ".driver", TestCluster.this.database.driver());
            p.setProperty("org.quartz.dataSource." + dataSource + ".URL", TestCluster.this.database.url);
            p.setProperty("org.quartz.dataSource." + dataSource + ".user", TestCluster.this.database.user);
            p.setProperty("org.quartz.dataSource." + dataSource + ".password", TestCluster.this.database.password);
            p.setProperty("org.quartz.dataSource." + dataSource + ".maxConnections", String.valueOf(this.threads + 3));
            return p;
        }

        private Class<?> storeClass() {
            return switch (this.store) {
                case SKIP_LOCKED -> SkipLockedJobStore.class;
                case CLUSTER -> ClusterJobStore.class;
                case STOCK -> JobStoreTX.class;
            };
        }

        private Class<?> delegateClass() {
            boolean postgres = TestCluster.this.database.kind == TestDatabase.Kind.POSTGRES;
            if (this.store == Store.SKIP_LOCKED) {
                return postgres ? SkipLockedDelegates.PostgreSQL.class : SkipLockedDelegates.Standard.class;
            }
            return postgres ? PostgreSQLDelegate.class : StdJDBCDelegate.class;
        }
    }
}
