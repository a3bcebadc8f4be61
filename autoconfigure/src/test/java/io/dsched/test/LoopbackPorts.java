package io.dsched.test;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/** Ports on 127.0.0.1 for the servers a test runs as processes of its own (Redis, PgBouncer). */
public final class LoopbackPorts {

    private LoopbackPorts() {}

    /**
     * Returns a port that nothing listens on now.
     * @return the port
     * @throws IOException if none can be had
     */
    public static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Tells whether something accepts connections on a port.
     * @param port the port
     * @return {@code true} if a connection was accepted
     */
    public static boolean accepts(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException ex) {
            return false;
        }
    }
}
