package io.dsched.definition;

/**
 * A job is declared in a way dsched cannot run; the message names the declaration and what is
 * wrong with it.
 */
public class InvalidJobDefinitionException extends RuntimeException {

    /**
     * Creates an exception for a declaration.
     * @param source where the job was declared, such as {@code OrderJobs.settle()}
     * @param problem what is wrong and, where possible, how to fix it
     */
    public InvalidJobDefinitionException(String source, String problem) {
        super("Invalid @DistributedScheduled on " + source + ": " + problem);
    }
}
