/** Internal: managing a cluster at run time: what the management endpoint reads and changes, and its errors. */
package io.dsched.internal.management;
