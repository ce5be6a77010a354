import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server standing in for an address a stored secret must never reach: it records the Authorization
 * header of every request and answers `body` (JSON).
 */
export const startAuthRecorder = async (body: string) => {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    received.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
};
