/** Internal: dsched's own tables: the execution history and the job definitions in force. */
package io.dsched.internal.store;
