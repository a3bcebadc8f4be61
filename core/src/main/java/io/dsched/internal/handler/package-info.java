/** Internal: {@code @JobHandler} methods: the named handlers that one-off and runtime jobs run. */
package io.dsched.internal.handler;
