package io.dsched.shards;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/** A node of the shard tests that declares no job and no handler: it fires the runtime jobs alone. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class BareNode {}
