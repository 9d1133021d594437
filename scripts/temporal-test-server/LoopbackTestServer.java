import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.net.InetSocketAddress;

/**
 * Temporal's time-skipping test server, bound to 127.0.0.1 only. The jar's own main (io.temporal.testserver.TestServer)
 * listens on every interface; the tests never need more than loopback. Arguments as the TypeScript SDK passes them to
 * an existing-path test server: {@code <port> [--enable-time-skipping]}.
 */
public final class LoopbackTestServer {
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: LoopbackTestServer <port> [--enable-time-skipping]");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    boolean timeSkipping = false;
    for (int i = 1; i < args.length; i++) {
      if (args[i].equalsIgnoreCase("--enable-time-skipping")) timeSkipping = true;
      else {
        System.err.println("unknown flag " + args[i]);
        System.exit(2);
      }
    }
    // The starter's first argument locks time skipping: locked unless asked for. 0: the clock starts now.
    TestServicesStarter services = new TestServicesStarter(!timeSkipping, 0);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port));
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server server = builder.build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.shutdownNow();
      services.close();
    }));
    server.awaitTermination();
  }
}
