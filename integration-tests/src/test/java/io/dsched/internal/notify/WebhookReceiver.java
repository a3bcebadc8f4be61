package io.dsched.internal.notify;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP server that receives webhooks: it records every request and answers with the
 * statuses it was told to, then 200. A {@link #STALL} answers only once released.
 */
final class WebhookReceiver implements AutoCloseable {

    /** An answer held back until {@link #release()}. */
    static final int STALL = 0;

    private final HttpServer server;

    private final ExecutorService threads = Executors.newFixedThreadPool(4);

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private final Deque<Integer> statuses = new ConcurrentLinkedDeque<>();

    private final CountDownLatch stalled = new CountDownLatch(1);

    WebhookReceiver() {
        try {
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        this.server.createContext("/hooks", this::receive);
        this.server.setExecutor(this.threads);
        this.server.start();
    }

    /**
     * Returns the URL webhooks are posted to.
     * @return the URL
     */
    URI url() {
        return URI.create("http://" + this.server.getAddress().getHostString() + ":"
                + this.server.getAddress().getPort() + "/hooks");
    }

    /**
     * Answers the next requests with these statuses, in order, and later ones with 200.
     * @param statuses the statuses, or {@link #STALL}
     */
    void answer(int... statuses) {
        for (int status : statuses) {
            this.statuses.add(status);
        }
    }

    /** Lets the stalled answers go, with 200. */
    void release() {
        this.stalled.countDown();
    }

    /**
     * Returns the requests received so far, in order.
     * @return the requests
     */
    List<Request> requests() {
        return new ArrayList<>(this.requests);
    }

    private void receive(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
        this.requests.add(new Request(exchange.getRequestMethod(), headers, body));
        Integer status = this.statuses.poll();
        if (status != null && status == STALL) {
            try {
                this.stalled.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        exchange.sendResponseHeaders((status != null && status != STALL) ? status : 200, -1);
        exchange.close();
    }

    @Override
    public void close() {
        release();
        this.server.stop(0);
        this.threads.shutdownNow();
    }

    /**
     * A request received.
     * @param method the HTTP method
     * @param headers the headers, by name in any case
     * @param body the exact bytes of the body
     */
    record Request(String method, Map<String, String> headers, byte[] body) {

        String header(String name) {
            return this.headers.get(name);
        }

        String text() {
            return new String(this.body, StandardCharsets.UTF_8);
        }
    }
}
