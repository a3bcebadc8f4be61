/** API: a job's schedule, what it does with missed fires, and the error of an invalid declaration. */
package io.dsched.definition;
