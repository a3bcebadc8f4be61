package io.dsched.internal.notify;

import java.util.Set;

/**
 * A job's streak of failed fires, as one failed attempt left it.
 *
 * @param length how many fires failed in a row
 * @param lengthened whether the failed attempt was the first failure of its fire, which made the
 *     streak longer; a further failed attempt of a fire already counted leaves it as it was
 * @param fires the fires of the streak remembered (only read and changed inside the compute of
 *     {@link FailureStreaks}, under its lock of the job)
 */
record Streak(int length, boolean lengthened, Set<String> fires) {}
