/** What a job is: its name, schedule, guard settings and the method it invokes. */
package io.dsched.definition;
