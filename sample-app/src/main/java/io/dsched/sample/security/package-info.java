/**
 * Who may reach the sample and do what: its three users, one per dsched role, sign-in, CSRF
 * protection, and the loopback address its H2 auto-server listens on.
 */
package io.dsched.sample.security;
