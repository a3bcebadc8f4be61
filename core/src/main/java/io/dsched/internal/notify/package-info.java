/** Internal: the listener that notifies, failure streaks and the signed webhook. No compatibility promise. */
package io.dsched.internal.notify;
