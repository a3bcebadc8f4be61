/**
 * Internal: the {@code dsched} Actuator endpoint, its reads and writes over HTTP, roles and the
 * audit log. No compatibility promise.
 */
package io.dsched.internal.actuate;
