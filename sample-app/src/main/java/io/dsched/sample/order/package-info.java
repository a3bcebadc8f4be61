/** Orders of the sample shop: their table, their REST API and the scheduled jobs that process them. */
package io.dsched.sample.order;
