/** Retrying failed attempts with exponential backoff, and deciding what is not worth retrying. */
package io.dsched.retry;
