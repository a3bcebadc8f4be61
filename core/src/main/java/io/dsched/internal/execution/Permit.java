package io.dsched.internal.execution;

/** What an admitted attempt holds until it ends. */
@FunctionalInterface
interface Permit {

    /** Holds nothing. */
    Permit NONE = () -> {};

    /** Gives back what the attempt held; called once, when it has ended. */
    void release();
}
