package io.dsched.test;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test's cluster: a fresh database, the nodes started on it, and a connection pool of the
 * test's own to observe what they did. Closing it stops every node and drops the database.
 *
 * <p>A suite declares it as a JUnit extension, which creates it before each test and closes it
 * after (after the suite's own {@code @AfterEach} methods, which may still look at it):
 *
 * <pre>{@code
 * @RegisterExtension
 * final TestCluster cluster = TestCluster.of(this::kind);
 * }</pre>
 *
 * In a class with {@code @TestInstance(PER_CLASS)} the tests share one cluster, created before the
 * first and closed once the class is done: for suites whose tests do not interfere.
 */
public final class TestCluster implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TestCluster.class);

    private final Supplier<TestDatabases.Kind> kind;

    private final Supplier<String> clusterName;

    private final List<ClusterNode> nodes = new ArrayList<>();

    private TestDatabase database;

    private HikariDataSource observer;

    private ClusterTables tables;

    private DatabasePlatform platform;

    private ExecutionRepository executions;

    private boolean sharedByClass;

    private TestCluster(Supplier<TestDatabases.Kind> kind, Supplier<String> clusterName) {
        this.kind = kind;
        this.clusterName = clusterName;
    }

    /**
     * Creates the cluster's database, or skips the test when none of the kind can be had.
     * @param kind the kind of database
     * @return the cluster, with no node yet
     */
    public static TestCluster on(TestDatabases.Kind kind) {
        return on(kind, ClusterTables.DEFAULT_CLUSTER);
    }

    /**
     * Creates the database of a cluster of the given name, whose nodes start with that
     * {@code dsched.cluster.name} unless their properties say otherwise.
     * @param kind the kind of database
     * @param clusterName the cluster's name
     * @return the cluster, with no node yet
     */
    public static TestCluster on(TestDatabases.Kind kind, String clusterName) {
        TestCluster cluster = new TestCluster(() -> kind, () -> clusterName);
        cluster.open();
        return cluster;
    }

    /**
     * Returns a cluster for a suite to register as an extension: its database is created before
     * each test (or before the first, in a {@code PER_CLASS} suite) and dropped after it.
     * @param kind the kind of database, asked for when the database is created
     * @return the extension
     */
    public static TestCluster of(Supplier<TestDatabases.Kind> kind) {
        return of(kind, () -> ClusterTables.DEFAULT_CLUSTER);
    }

    /**
     * Returns a cluster of the given name for a suite to register as an extension.
     * @param kind the kind of database, asked for when the database is created
     * @param clusterName the cluster's name, asked for likewise
     * @return the extension
     * @see #of(Supplier)
     */
    public static TestCluster of(Supplier<TestDatabases.Kind> kind, Supplier<String> clusterName) {
        return new TestCluster(kind, clusterName);
    }

    private void open() {
        this.nodes.clear();
        this.tables = ClusterTables.of(this.clusterName.get());
        this.database = TestDatabases.create(this.kind.get());
        try {
            this.observer = this.database.newDataSource();
        } catch (RuntimeException ex) {
            this.database.close();
            this.database = null;
            throw ex;
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        // where the test's part of its class's log begins: .ci/run prints that part of a failed test
        System.out.println(
                "[dsched-test] begins " + context.getRequiredTestMethod().getName());
        if (this.database != null) {
            return;
        }
        this.sharedByClass = context.getTestInstanceLifecycle().orElse(TestInstance.Lifecycle.PER_METHOD)
                == TestInstance.Lifecycle.PER_CLASS;
        open();
        if (this.sharedByClass) {
            // closed with the class's context, once its last test and @AfterAll methods are done
            classContext(context).getStore(NAMESPACE).put(this, this);
        }
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent()) {
            current = current.getParent().orElseThrow();
        }
        return current;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!this.sharedByClass) {
            close();
        }
    }

    /**
     * Returns the names of the cluster's tables.
     * @return the tables
     */
    public ClusterTables tables() {
        return this.tables;
    }

    /**
     * Returns the names of the tables in the database, in lower case.
     * @return the names
     */
    public List<String> tableNames() {
        List<String> names = new ArrayList<>();
        try (Connection connection = this.observer.getConnection();
                ResultSet tables = connection
                        .getMetaData()
                        .getTables(connection.getCatalog(), connection.getSchema(), "%", null)) {
            while (tables.next()) {
                String type = tables.getString("TABLE_TYPE");
                if ("TABLE".equals(type) || "BASE TABLE".equals(type)) {
                    names.add(tables.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
        return names;
    }

    private Map<String, Object> withName(Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("dsched.cluster.name", this.tables.clusterName());
        all.putAll(properties);
        return all;
    }

    /**
     * Starts a node.
     * @param id the node id
     * @param application the application's configuration class
     * @param properties further properties
     * @return the running node
     */
    public ClusterNode start(String id, Class<?> application, Map<String, Object> properties) {
        ClusterNode node = ClusterNode.start(this.database, id, application, withName(properties));
        this.nodes.add(node);
        return node;
    }

    /**
     * Starts a node that serves HTTP on a free port.
     * @param id the node id
     * @param application the application's configuration class
     * @param properties further properties
     * @param classLoader the class loader of the node's context, or {@code null} for the default
     * @return the running node
     */
    public ClusterNode startWeb(
            String id, Class<?> application, Map<String, Object> properties, ClassLoader classLoader) {
        ClusterNode node = ClusterNode.startWeb(this.database, id, application, withName(properties), classLoader);
        this.nodes.add(node);
        return node;
    }

    /**
     * Returns the nodes started so far, running or not.
     * @return the nodes
     */
    public List<ClusterNode> nodes() {
        return this.nodes;
    }

    /**
     * Returns the database.
     * @return the database
     */
    public TestDatabase database() {
        return this.database;
    }

    /**
     * Returns the test's own connections to the database.
     * @return a DataSource
     */
    public DataSource observer() {
        return this.observer;
    }

    /**
     * Returns the database's platform.
     * @return the platform
     */
    public DatabasePlatform platform() {
        if (this.platform == null) {
            this.platform = DatabasePlatform.detect(this.observer);
        }
        return this.platform;
    }

    /**
     * Returns the execution history, read on the test's own connections.
     * @return the repository
     */
    public ExecutionRepository executions() {
        if (this.executions == null) {
            this.executions = new DschedRepositories(this.observer, platform(), this.tables).executions();
        }
        return this.executions;
    }

    @Override
    public void close() {
        if (this.database == null) {
            return;
        }
        try {
            this.nodes.forEach(ClusterNode::close);
            this.observer.close();
        } finally {
            this.database.close();
            this.database = null;
            this.observer = null;
            this.platform = null;
            this.executions = null;
            this.nodes.clear();
        }
    }
}
