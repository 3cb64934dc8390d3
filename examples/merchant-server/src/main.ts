/**
 * `npm start`: the merchant server with its configuration from the environment. Prints
 * `listening on http://HOST:PORT` once ready (PORT=0 picks a free port) and stops on SIGTERM/SIGINT.
 */
import type { AddressInfo } from "node:net";
import { configFromEnv, createMerchantServer } from "./server.js";

const config = configFromEnv(process.env);
const server = createMerchantServer(config);
server.listen(config.port, config.host, () => {
  const { address, port } = server.address() as AddressInfo;
  console.log(`listening on http://${address}:${port}`);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
