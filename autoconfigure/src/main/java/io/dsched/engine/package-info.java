/**
 * The clustered engine: Quartz's JDBC job store configured for dsched, the trigger that evaluates
 * Spring cron expressions, and the synchronisation of job definitions into the shared store.
 */
package io.dsched.engine;
