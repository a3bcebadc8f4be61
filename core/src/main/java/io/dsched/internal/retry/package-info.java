/** Internal: the retry policy, exponential backoff with its defaults. No compatibility promise. */
package io.dsched.internal.retry;
