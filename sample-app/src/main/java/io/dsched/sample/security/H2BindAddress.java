package io.dsched.sample.security;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.StringUtils;

/**
 * Has H2's auto-server, through which instances started from one directory share the sample's file
 * database, listen on {@code sample.h2.bind-address} (the loopback address unless set) instead of on
 * every interface, where it would let anyone in as {@code sa} with an empty password. H2 reads the
 * address from its system property {@code h2.bindAddress} once, when its classes load; this sets it
 * while the environment is prepared, before the DataSource and H2 exist.
 */
public class H2BindAddress implements EnvironmentPostProcessor {

    /** The property that chooses the address. */
    static final String PROPERTY = "sample.h2.bind-address";

    /** H2's system property. */
    static final String H2_PROPERTY = "h2.bindAddress";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String address = environment.getProperty(PROPERTY, "127.0.0.1");
        if (StringUtils.hasText(address)) {
            System.setProperty(H2_PROPERTY, address.trim());
        }
    }
}
