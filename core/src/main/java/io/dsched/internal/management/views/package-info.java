/** Internal: the shapes the management endpoint answers with; each is documented in the README. */
package io.dsched.internal.management.views;
