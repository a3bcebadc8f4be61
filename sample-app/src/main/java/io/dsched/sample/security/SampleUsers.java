package io.dsched.sample.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The passwords of the sample's three users. A password that is not set is generated at start-up
 * and logged once, so that no fixed password ships with the sample.
 */
@ConfigurationProperties("sample.users")
public class SampleUsers {

    /** Password of the user 'viewer' (role DSCHED_VIEWER); generated when not set. */
    private String viewerPassword;

    /** Password of the user 'operator' (role DSCHED_OPERATOR); generated when not set. */
    private String operatorPassword;

    /** Password of the user 'admin' (role DSCHED_ADMIN); generated when not set. */
    private String adminPassword;

    public String getViewerPassword() {
        return this.viewerPassword;
    }

    public void setViewerPassword(String viewerPassword) {
        this.viewerPassword = viewerPassword;
    }

    public String getOperatorPassword() {
        return this.operatorPassword;
    }

    public void setOperatorPassword(String operatorPassword) {
        this.operatorPassword = operatorPassword;
    }

    public String getAdminPassword() {
        return this.adminPassword;
    }

    public void setAdminPassword(String adminPassword) {
        this.adminPassword = adminPassword;
    }
}
