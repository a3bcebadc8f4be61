package io.dsched.internal.management.views;

import java.time.Instant;
import java.util.List;

/**
 * The cluster's recent attempts, minute by minute.
 *
 * @param from the start of the first minute
 * @param to the end of the last minute
 * @param minutes one entry per minute, oldest first
 * @param deadLetterBacklog open dead letters now
 * @param sampled whether only the latest attempts were counted, as there were more than the
 *     timeline reads at most
 */
public record Timeline(Instant from, Instant to, List<Minute> minutes, long deadLetterBacklog, boolean sampled) {}
