/** Internal: text fitted to the bounded columns it is written to. */
package io.dsched.internal.text;
