package io.dsched.test;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.store.DatabasePlatform;
import io.dsched.store.DschedRepositories;
import io.dsched.store.ExecutionRepository;
import java.util.ArrayList;
import java.util.List;
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

    private ExecutionRepository executions;

    private TestCluster(TestDatabase database) {
        this.database = database;
        this.observer = database.newDataSource();
    }

    /**
     * Creates the cluster's database, or skips the test when none of the kind can be had.
     * @param kind the kind of database
     * @return the cluster, with no node yet
     */
    public static TestCluster on(TestDatabases.Kind kind) {
        return new TestCluster(TestDatabases.create(kind));
    }

    /**
     * Starts a node.
     * @param id the node id
     * @param application the application's configuration class
     * @param properties further properties
     * @return the running node
     */
    public ClusterNode start(String id, Class<?> application, Map<String, Object> properties) {
        ClusterNode node = ClusterNode.start(this.database, id, application, properties);
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
        ClusterNode node = ClusterNode.startWeb(this.database, id, application, properties, classLoader);
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
            this.executions = new DschedRepositories(this.observer, platform()).executions();
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
