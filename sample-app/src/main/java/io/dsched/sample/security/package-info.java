/** Who may use the admin UI and the dsched endpoint: three users, one per dsched role. */
package io.dsched.sample.security;
