/**
 * Internal: the post-processors that turn annotated bean methods into job definitions and
 * handlers. No compatibility promise.
 */
package io.dsched.internal.annotation;
