// src/node/ — the Node host of the runtime: fs loader, HTTP server, `npm start` / `npm run serve`.
// With builder/ and cli/, the only folders that may import Node built-ins (`node:*`); the runtime
// core in src/ stays host-neutral. It never imports the builder or the command line (README "Layers").
export { fsLoader } from './fs-loader.ts';
export { MAX_HEADER_BYTES, MAX_URL_BYTES, startServer, type RunningServer, type ServerOptions } from './server.ts';
export { createRateLimiter, type RateLimitOptions } from './rate-limit.ts';
