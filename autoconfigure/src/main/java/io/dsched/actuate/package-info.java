/**
 * API of the {@code dsched} Actuator endpoint: {@code ValueSanitizer}, which decides what of a
 * payload, parameter or log line a caller is shown, and the value it is given.
 */
package io.dsched.actuate;
