/** Internal: what each attempt logged while it ran, captured from Logback and kept with its execution. */
package io.dsched.internal.logs;
