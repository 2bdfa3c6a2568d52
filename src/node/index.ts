// src/node/ — the Node host of the runtime: fs loader, HTTP server, `npm start` / `npm run serve`.
// Besides build/, this is the ONLY folder that may import Node built-ins (`node:*`); the runtime
// core in src/ stays host-neutral.
export { fsLoader } from './fs-loader.ts';
export { MAX_HEADER_BYTES, MAX_URL_BYTES, startServer, type RunningServer, type ServerOptions } from './server.ts';
export { createRateLimiter, type RateLimitOptions } from './rate-limit.ts';
