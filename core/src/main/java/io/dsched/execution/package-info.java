/** One fire of one job: claim, guard, invoke and record its outcome. */
package io.dsched.execution;
