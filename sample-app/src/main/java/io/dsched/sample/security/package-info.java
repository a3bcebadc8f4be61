/** Who may reach the sample and do what: its three users, one per dsched role, sign-in and CSRF protection. */
package io.dsched.sample.security;
