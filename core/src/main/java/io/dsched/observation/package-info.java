/**
 * API of traces: the Micrometer observation contexts and conventions of every attempt and of
 * every submission, to replace or extend.
 */
package io.dsched.observation;
