package io.dsched.internal.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;

/**
 * A deployment: the jobs it declares.
 *
 * @param hash the fingerprint of its identity
 * @param jobs the names of the jobs it declares
 * @param nodeId the node that first started it
 * @param since when the cluster first saw it, in database time
 * @param now the database's time when this was read
 */
public record Deployment(String hash, Set<String> jobs, String nodeId, Instant since, Instant now) {

    /**
     * Whether this deployment declares a job.
     * @param job the job's name
     * @return {@code true} if it does
     */
    public boolean declares(String job) {
        return this.jobs.contains(job);
    }

    /**
     * Returns the identity of a deployment.
     * @param jobNames the names of the jobs it declares
     * @param build its build, or {@code null} if the application has no build information
     * @return the identity
     */
    public static String identity(Set<String> jobNames, String build) {
        return String.join("\n", new TreeSet<>(jobNames)) + "\n#build=" + (build != null ? build : "");
    }

    /**
     * Returns the fingerprint of an identity, the {@link #hash()} of the deployment it names.
     * @param identity an {@link #identity(Set, String) identity}
     * @return its SHA-256, in hexadecimal
     */
    static String fingerprint(String identity) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }
}
