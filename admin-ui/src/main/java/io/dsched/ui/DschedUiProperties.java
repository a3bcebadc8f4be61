package io.dsched.ui;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Configuration of the admin UI. */
@ConfigurationProperties("dsched.ui")
public class DschedUiProperties {

    /** Whether to serve the admin UI under the Actuator base path, at dsched-ui/. */
    private boolean enabled = true;

    /**
     * Returns whether to serve the admin UI.
     * @return {@code true} unless turned off
     */
    public boolean isEnabled() {
        return this.enabled;
    }

    /**
     * Sets whether to serve the admin UI.
     * @param enabled whether to serve it
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
