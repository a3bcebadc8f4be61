/** Notifications of dead letters and failure streaks: the {@code Notifier} SPI and the signed webhook. */
package io.dsched.notify;
