package io.dsched.notify;

/**
 * Passes notifications on to people: a webhook, a chat, a pager. Declare a bean of this type and
 * dsched hands it every notification of its node.
 *
 * <p>dsched calls a notifier on the thread that ran the attempt: it must return quickly, handing
 * slow work (a request to another system) to a thread of its own, as the webhook notifier
 * ({@code dsched.notify.webhook.*}) does. An exception it throws is logged and stops neither the job nor the other notifiers.
 */
@FunctionalInterface
public interface Notifier {

    /**
     * Passes a notification on.
     * @param notification what happened
     */
    void notify(Notification notification);
}
