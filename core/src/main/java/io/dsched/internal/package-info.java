/**
 * dsched's internals, below the API packages ({@code io.dsched.annotation}, {@code
 * io.dsched.jobs}, {@code io.dsched.execution}, {@code io.dsched.definition}, {@code
 * io.dsched.retry}, {@code io.dsched.notify}, {@code io.dsched.observation}, {@code
 * io.dsched.actuate}, {@code io.dsched.autoconfigure}) and the Quartz extension {@code
 * io.dsched.quartz}. Nothing here carries a compatibility promise: it may change in any release.
 */
package io.dsched.internal;
