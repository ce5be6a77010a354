import type { Server } from 'node:http';

/**
 * The HTTP side of a graceful stop (main.ts, issue 24 item 3): the requests this node is answering, counted
 * at the Node server (so a 404, a static file or a client that hangs up mid-body is counted and uncounted
 * exactly once), and a drain that waits for them.
 *
 * The counter is attached before Socket.IO attaches to the server, so engine.io keeps its own requests
 * (long polls that last a ping interval) away from it. While draining every answer asks its client to close
 * the connection (`Connection: close`), so keep-alive clients reconnect to another node.
 */
export type TDrain = {
  readonly draining: boolean;
  inFlight: () => number;
  /** from now on: readiness answers 503 and answers close their connection */
  start: () => void;
  /** resolves true once nothing is in flight, false when `timeoutMs` passed first */
  idle: (timeoutMs: number) => Promise<boolean>;
};

export const createDrain = (server: Server): TDrain => {
  let inFlight = 0;
  let draining = false;
  let waiters: (() => void)[] = [];

  server.on('request', (_req, res) => {
    inFlight += 1;
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0 && waiters.length > 0) {
        const done = waiters;
        waiters = [];
        for (const w of done) w();
      }
    });
  });

  return {
    get draining() {
      return draining;
    },
    inFlight: () => inFlight,
    start: () => {
      draining = true;
    },
    idle: (timeoutMs) =>
      inFlight === 0
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), timeoutMs);
            timer.unref();
            waiters.push(() => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
  };
};
