/** A read-only REST view of dsched's execution history. */
package io.dsched.sample.history;
