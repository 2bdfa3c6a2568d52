/**
 * MCP over Streamable HTTP (the Node server's `/mcp`): the same tools, resources, prompt and
 * skills as `skills-api mcp` over stdio (src/node/mcp.ts), answered statelessly. Every POST gets a
 * fresh server and transport (the SDK's stateless mode: no session id, nothing kept between
 * requests) and a JSON answer, never an event stream: nothing here pushes notifications, so a
 * request's answer is its whole response. GET (the optional server-to-client stream) and DELETE
 * (ending a session) are 405, as the transport's rules allow a server without sessions.
 *
 * This module imports the MCP SDK, an optional peer dependency: the server loads it only when
 * `/mcp` is first asked (`loadMcpHttp`), and answers a JSON error when the SDK is not installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { SkillsClient } from '../client.ts';
import { Turns } from '../fair.ts';
import { createMcpServer } from './mcp.ts';
import { SKILL_LOADS_AT_ONCE } from './mcp-skills.ts';

/** Largest JSON-RPC request body read (a request is a few hundred bytes; a batch of them stays far below). */
export const MAX_MCP_BODY_BYTES = 1024 * 1024;

/** The methods `/mcp` answers. */
export const MCP_ALLOW = 'POST, OPTIONS';

/** Answers one HTTP request to `/mcp`. */
export type McpHttpHandler = (request: Request) => Promise<Response>;

/**
 * A stateless Streamable HTTP handler over `client`. `source` names where the answers come from,
 * for errors; `version` is the server version reported to clients (default: this package's).
 */
export function createMcpHttpHandler(client: SkillsClient, source: string, version = packageVersion()): McpHttpHandler {
  // One bound for every request's skill descriptions: a batch (up to the SDK's 100 messages) of
  // skills/list pages, or many requests at once, wait their turn instead of fanning out.
  const skillLoads = new Turns(SKILL_LOADS_AT_ONCE);
  return async (request) => {
    if (request.method !== 'POST') return methodNotAllowed(request.method);
    const server = createMcpServer(client, version, source, skillLoads);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_MCP_BODY_BYTES });
    try {
      await server.connect(transport);
      // With JSON answers the response is complete once returned: both can close at once.
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

/** 405 for GET, DELETE and the rest, as a JSON-RPC error (what the SDK's stateless examples answer). */
function methodNotAllowed(method: string): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message: `Method ${method.slice(0, 20)} is not allowed: this MCP server is stateless; POST JSON-RPC messages to it` }, id: null };
  return new Response(JSON.stringify(body), { status: 405, headers: { allow: MCP_ALLOW, 'content-type': 'application/json; charset=utf-8' } });
}

/** The package's version: package.json is two folders up in a clone (src/node/), three in the package (dist/src/node/). */
function packageVersion(): string {
  for (const path of ['../../package.json', '../../../package.json']) {
    const url = new URL(path, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'skills-directory-api' && typeof pkg.version === 'string') return pkg.version;
  }
  return '0.0.0';
}
