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
import javax.sql.DataSource;

/**
 * A test's cluster: a fresh database, the nodes started on it, and a connection pool of the
 * test's own to observe what they did. Closing it stops every node and drops the database.
 */
public final class TestCluster implements AutoCloseable {

    private final TestDatabase database;

    private final HikariDataSource observer;

    private final List<ClusterNode> nodes = new ArrayList<>();

    private DatabasePlatform platform;

    private final ClusterTables tables;

    private ExecutionRepository executions;

    private TestCluster(TestDatabase database, ClusterTables tables) {
        this.database = database;
        this.observer = database.newDataSource();
        this.tables = tables;
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
        ClusterTables tables = ClusterTables.of(clusterName);
        return new TestCluster(TestDatabases.create(kind), tables);
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
        this.nodes.forEach(ClusterNode::close);
        this.observer.close();
        this.database.close();
    }
}
