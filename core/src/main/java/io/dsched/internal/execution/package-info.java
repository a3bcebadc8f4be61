/**
 * Internal: the pipeline one attempt walks (claim, admit, invoke, decide, record, report) and the
 * executor that feeds it. No compatibility promise.
 */
package io.dsched.internal.execution;
