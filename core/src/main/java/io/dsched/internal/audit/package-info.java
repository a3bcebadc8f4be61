/** Internal: the audit log: who changed what through the management endpoint, when and from where. */
package io.dsched.internal.audit;
