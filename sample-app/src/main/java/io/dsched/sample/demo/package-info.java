/** Jobs that exist to show the admin UI's failure views: one that always fails, and untrusted text. */
package io.dsched.sample.demo;
