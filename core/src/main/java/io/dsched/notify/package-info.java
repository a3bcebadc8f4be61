/** API: the {@code Notifier} SPI, its notifications of dead letters and failure streaks, and the check of a webhook's signature. */
package io.dsched.notify;
