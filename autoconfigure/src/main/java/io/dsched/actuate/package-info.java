/** The {@code dsched} Actuator endpoint: reads and writes over HTTP, with roles and the audit log. */
package io.dsched.actuate;
