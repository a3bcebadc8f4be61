/**
 * Internal: the observations of attempts and submissions, and the trace context a one-off job
 * carries from its submission to its attempts. No compatibility promise.
 */
package io.dsched.internal.observation;
