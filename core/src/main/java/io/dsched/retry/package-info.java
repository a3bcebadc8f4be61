/** API: {@code @Retry} settings, and the exception that says a failure is not worth retrying. */
package io.dsched.retry;
