package io.dsched.internal.engine;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.springframework.util.StringUtils;

/**
 * The identity of this node in the cluster.
 *
 * @param value the id, unique among running nodes
 */
public record NodeId(String value) {

    public NodeId {
        if (!StringUtils.hasText(value)) {
            throw new IllegalArgumentException("dsched.node-id must not be blank");
        }
        if (value.length() > 150) {
            throw new IllegalArgumentException("dsched.node-id '" + value + "' is longer than 150 characters");
        }
    }

    /**
     * Returns the configured id, or one made of the host name and a random suffix.
     * @param configured the configured id, or {@code null}
     * @return the node id
     */
    public static NodeId of(String configured) {
        if (StringUtils.hasText(configured)) {
            return new NodeId(configured.trim());
        }
        byte[] suffix = new byte[3];
        new SecureRandom().nextBytes(suffix);
        return new NodeId(hostName() + "-" + HexFormat.of().formatHex(suffix));
    }

    private static String hostName() {
        try {
            String host = InetAddress.getLocalHost().getHostName();
            return (host.length() > 100) ? host.substring(0, 100) : host;
        } catch (UnknownHostException ex) {
            return "node";
        }
    }

    @Override
    public String toString() {
        return this.value;
    }
}
