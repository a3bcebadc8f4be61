package io.dsched.test;

import com.zaxxer.hikari.HikariDataSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * One node of an in-process test cluster: an application context of its own, with its own
 * connection pool and Quartz instance id, on a shared database.
 */
public final class ClusterNode implements AutoCloseable {

    private final String id;

    private final ConfigurableApplicationContext context;

    private ClusterNode(String id, ConfigurableApplicationContext context) {
        this.id = id;
        this.context = context;
    }

    /**
     * Starts a node.
     * @param database the shared database
     * @param id the node id
     * @param application the application's configuration class (with auto-configuration enabled)
     * @param properties further properties, such as the crons of the jobs under test
     * @return the running node
     */
    public static ClusterNode start(
            TestDatabase database, String id, Class<?> application, Map<String, Object> properties) {
        return start(database, id, application, properties, WebApplicationType.NONE, null);
    }

    /**
     * Starts a node that serves HTTP on a free port.
     * @param database the shared database
     * @param id the node id
     * @param application the application's configuration class (with auto-configuration enabled)
     * @param properties further properties
     * @param classLoader the class loader of the node's context, or {@code null} for the default
     * @return the running node
     */
    public static ClusterNode startWeb(
            TestDatabase database,
            String id,
            Class<?> application,
            Map<String, Object> properties,
            ClassLoader classLoader) {
        Map<String, Object> all = new LinkedHashMap<>(properties);
        all.put("server.port", "0");
        return start(database, id, application, all, WebApplicationType.SERVLET, classLoader);
    }

    private static ClusterNode start(
            TestDatabase database,
            String id,
            Class<?> application,
            Map<String, Object> properties,
            WebApplicationType web,
            ClassLoader classLoader) {
        Map<String, Object> all = new LinkedHashMap<>(database.springProperties());
        all.put("dsched.node-id", id);
        all.put("spring.main.banner-mode", "off");
        all.putAll(properties);
        SpringApplicationBuilder builder =
                new SpringApplicationBuilder(application).web(web).properties(all);
        if (classLoader != null) {
            builder.resourceLoader(new DefaultResourceLoader(classLoader));
        }
        return new ClusterNode(id, builder.run());
    }

    /**
     * Returns the port a web node serves HTTP on.
     * @return the port
     */
    public int port() {
        return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    /**
     * Returns the node id.
     * @return the id
     */
    public String id() {
        return this.id;
    }

    /**
     * Returns a bean of the node's context.
     * @param type the bean type
     * @param <T> the bean type
     * @return the bean
     */
    public <T> T bean(Class<T> type) {
        return this.context.getBean(type);
    }

    /**
     * Whether the node's context has a bean of a type.
     * @param type the bean type
     * @return {@code true} if it has one
     */
    public boolean hasBean(Class<?> type) {
        return this.context.getBeanNamesForType(type).length > 0;
    }

    /**
     * Cuts the node off from the database at once, as if its process had died: its connection
     * pools close, so that no heartbeat, outcome or clean-up of it reaches the database any more,
     * while its threads stay where they are. {@link #close()} then stops what is left of it.
     */
    public void cutOff() {
        this.context.getBeansOfType(HikariDataSource.class).values().forEach(HikariDataSource::close);
    }

    @Override
    public void close() {
        if (this.context.isActive()) {
            this.context.close();
        }
    }
}
