package io.dsched.benchmarks;

import java.util.concurrent.locks.LockSupport;

/**
 * Submits W5's one-off jobs on a fixed-rate schedule: job {@code i} falls due at {@code start + i
 * × period}, whenever the submissions before it returned, so that a slow call delays the next ones
 * but never shifts the schedule. Each job's key carries the moment it was submitted, read from
 * {@link Probe#epochMicros} just before the submission call: {@code "<index>@<epochMicros>"}.
 */
final class Pacer {

    /** The word before a plan on a worker's standard input. */
    static final String COMMAND = "SUBMIT";

    private Pacer() {}

    /**
     * The submissions of one submitter: indices {@code first}, {@code first + stride}, ... below
     * {@code total}, so that {@code stride} submitters with {@code first} from 0 share one schedule.
     * @param startMillis when index 0 falls due, in epoch milliseconds
     * @param total how many jobs the whole schedule has
     * @param first this submitter's first index
     * @param stride how many submitters share the schedule
     * @param periodMicros the time between two indices
     */
    record Plan(long startMillis, int total, int first, int stride, long periodMicros) {

        /**
         * Returns the plan as a line for a worker's standard input.
         * @return such as {@code SUBMIT 1767225600000 1750 0 2 20000}
         */
        String command() {
            return COMMAND + " " + startMillis + " " + total + " " + first + " " + stride + " " + periodMicros;
        }

        /**
         * Reads a plan written by {@link #command()}.
         * @param line the line
         * @return the plan
         */
        static Plan parse(String line) {
            String[] words = line.trim().split("\\s+");
            if (words.length != 6 || !words[0].equals(COMMAND)) {
                throw new IllegalArgumentException("Not a plan: " + line);
            }
            return new Plan(
                    Long.parseLong(words[1]),
                    Integer.parseInt(words[2]),
                    Integer.parseInt(words[3]),
                    Integer.parseInt(words[4]),
                    Long.parseLong(words[5]));
        }
    }

    /**
     * A job's key, as the submitter made it.
     * @param index its place in the schedule
     * @param submittedMicros when it was submitted, in epoch microseconds
     */
    record Key(int index, long submittedMicros) {

        /**
         * Returns how late the job was submitted against its plan's schedule.
         * @param plan the plan
         * @return microseconds, not negative: {@link #run} submits no job before its time
         */
        long behindMicros(Plan plan) {
            return submittedMicros - (plan.startMillis() * 1_000 + index * plan.periodMicros());
        }

        @Override
        public String toString() {
            return index + "@" + submittedMicros;
        }

        /**
         * Reads a key.
         * @param key the key
         * @return the key, or {@code null} if it is not one of a pacer's
         */
        static Key parse(String key) {
            int at = key.indexOf('@');
            if (at <= 0) {
                return null;
            }
            try {
                return new Key(Integer.parseInt(key.substring(0, at)), Long.parseLong(key.substring(at + 1)));
            } catch (NumberFormatException ex) {
                return null;
            }
        }
    }

    /**
     * Submits every job of a plan, each at its time, on the calling thread.
     * @param plan the plan
     * @param submitter the submitter
     * @return how many jobs it submitted
     * @throws Exception if a submission fails (the jobs after it are not submitted) or the thread
     *     is interrupted
     */
    static int run(Plan plan, Submitter submitter) throws Exception {
        // the schedule on the monotonic clock, anchored once to the wall clock the plan is in (read
        // first, so that no submission goes before its time on the wall clock)
        long wall = Probe.epochMicros();
        long base = System.nanoTime() + (plan.startMillis() * 1_000 - wall) * 1_000;
        int submitted = 0;
        for (int i = plan.first(); i < plan.total(); i += plan.stride()) {
            waitUntil(base + i * plan.periodMicros() * 1_000);
            submitter.submit(new Key(i, Probe.epochMicros()).toString());
            submitted++;
        }
        return submitted;
    }

    private static void waitUntil(long nanoTime) throws InterruptedException {
        long remaining;
        while ((remaining = nanoTime - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
            if (Thread.interrupted()) {
                throw new InterruptedException("Interrupted while pacing submissions");
            }
        }
    }
}
