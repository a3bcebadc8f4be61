/** Spring Boot auto-configuration and configuration properties of dsched. */
package io.dsched.autoconfigure;
