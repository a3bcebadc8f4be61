/**
 * Traces: a Micrometer observation of every attempt and of every submission, and the trace context
 * a one-off job carries from its submission to its attempts.
 */
package io.dsched.observation;
