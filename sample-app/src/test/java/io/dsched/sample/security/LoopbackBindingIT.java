package io.dsched.sample.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.sample.crashlab.SampleNode;
import java.io.IOException;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.util.FileSystemUtils;

/**
 * The sample as a newcomer starts it, {@code java -jar} in a directory of its own with its default H2
 * file database, listens on the loopback address only: its HTTP connector, and the H2 auto-server
 * through which other instances share the file. Proved from the listening sockets the kernel reports
 * (Linux's {@code /proc/net/tcp} and {@code tcp6}) on the HTTP port and on the port H2 writes in its
 * lock file, and by connecting to every other address of this machine, which must be refused.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class LoopbackBindingIT {

    private static final Path DIRECTORY = Path.of("target", "loopback-binding");

    private SampleNode node;

    @AfterEach
    void stopNode() {
        if (this.node != null) {
            this.node.destroy();
        }
    }

    @Test
    void theSampleListensOnTheLoopbackAddressOnlyForHttpAndForH2() throws IOException {
        FileSystemUtils.deleteRecursively(DIRECTORY);
        Files.createDirectories(DIRECTORY);
        this.node = new SampleNode(
                "loopback-node",
                DIRECTORY.resolve("node.log"),
                List.of(),
                Map.of("viewer", "v", "operator", "o", "admin", "a"),
                DIRECTORY);
        this.node.start();
        await("the sample to serve")
                .atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(this.node::isReady);

        int http = this.node.port();
        // the lock file tells the other instances where the server is; H2 writes 127.0.0.1 as
        // localhost, and so it does for a host name that resolves to it, so the sockets are the proof
        String server = lockFile().getProperty("server");
        String host = server.substring(0, server.lastIndexOf(':'));
        assertThat(InetAddress.getByName(host).isLoopbackAddress())
                .as("the H2 auto-server's address in its lock file, %s, is a loopback address", server)
                .isTrue();
        int h2 = Integer.parseInt(server.substring(server.lastIndexOf(':') + 1));

        for (int port : new int[] {http, h2}) {
            if (Files.isReadable(Path.of("/proc/net/tcp"))) {
                assertThat(listening(port))
                        .as("the addresses listening on port %d", port)
                        .isNotEmpty()
                        .allSatisfy((address) -> assertThat(address.isLoopbackAddress())
                                .as("%s is a loopback address", address)
                                .isTrue());
            }
            assertThat(connects(InetAddress.getLoopbackAddress(), port)).isTrue();
            for (InetAddress other : otherAddresses()) {
                assertThat(connects(other, port))
                        .as("a connection to %s on port %d", other, port)
                        .isFalse();
            }
        }
    }

    private static Properties lockFile() throws IOException {
        Path lock = DIRECTORY.resolve("data").resolve("dsched-sample.lock.db");
        await("H2's lock file").atMost(Duration.ofSeconds(10)).until(() -> Files.isRegularFile(lock));
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(lock)) {
            properties.load(reader);
        }
        return properties;
    }

    /** The local addresses of the sockets that listen on a port, as the kernel lists them. */
    private static List<InetAddress> listening(int port) throws IOException {
        List<InetAddress> addresses = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path path = Path.of(table);
            if (!Files.isReadable(path)) {
                continue;
            }
            List<String> lines = Files.readAllLines(path);
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                // state 0A is LISTEN
                if ("0A".equals(fields[3]) && Integer.parseInt(local[1], 16) == port) {
                    addresses.add(address(local[0]));
                }
            }
        }
        return addresses;
    }

    /** An address as {@code /proc/net/tcp} writes it: 32-bit words in the host's (little-endian) order. */
    private static InetAddress address(String hex) throws UnknownHostException {
        byte[] words = HexFormat.of().parseHex(hex);
        byte[] address = new byte[words.length];
        for (int word = 0; word < words.length; word += 4) {
            for (int i = 0; i < 4; i++) {
                address[word + i] = words[word + 3 - i];
            }
        }
        return InetAddress.getByAddress(address);
    }

    private static List<InetAddress> otherAddresses() throws SocketException {
        List<InetAddress> addresses = new ArrayList<>();
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (network.isUp()) {
                for (InetAddress address : Collections.list(network.getInetAddresses())) {
                    if (!address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                        addresses.add(address);
                    }
                }
            }
        }
        return addresses;
    }

    private static boolean connects(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2000);
            return true;
        } catch (IOException ex) {
            return false;
        }
    }
}
