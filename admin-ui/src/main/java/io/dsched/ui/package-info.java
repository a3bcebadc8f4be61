/** The admin UI: its static files and the auto-configuration that serves them under the Actuator base path. */
package io.dsched.ui;
