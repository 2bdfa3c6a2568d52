/**
 * The endpoint table (src/endpoints.ts) on its own: every entry is well-formed, its patterns route
 * to it, and the limits it declares agree with the search runtime's until search reads them from
 * the table.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_DOCS } from '../src/endpoint-docs.ts';
import { AUTOCOMPLETE_DEFAULT, AUTOCOMPLETE_MAX, MAX_QUERY_LENGTH, endpointList, type EndpointName } from '../src/endpoints.ts';
import { matchPattern, matchRoute } from '../src/route.ts';
import * as S from '../src/schemas.ts';
import * as search from '../src/search/index.ts';
import * as options from '../src/search/options.ts';

describe('the endpoint table', () => {
  it('declares the same search limits as the search runtime', () => {
    expect([MAX_QUERY_LENGTH, AUTOCOMPLETE_DEFAULT, AUTOCOMPLETE_MAX]).toEqual([options.MAX_QUERY_LENGTH, search.AUTOCOMPLETE_DEFAULT, search.AUTOCOMPLETE_MAX]);
  });

  it.each(endpointList().map(([name, endpoint]) => [name, endpoint] as const))('%s: a pattern for every path parameter, a known response, a route to itself', async (name, endpoint) => {
    const names = [...endpoint.path.matchAll(/[:*]([A-Za-z]+)/g)].map((m) => m[1]);
    expect(Object.keys(endpoint.pathParams)).toEqual(names);
    if (typeof endpoint.response === 'string') expect(S[endpoint.response]).toBeDefined();
    // A sample path: each parameter replaced by a value its pattern accepts.
    const sample = endpoint.path.replace(/[:*]([A-Za-z]+)/g, (_, param: string) => (param === 'slug' ? 'dev-ops' : param === 'owner' ? 'Acme' : 'x.y'));
    expect(matchRoute(sample)?.name).toBe(name);
    expect(matchRoute(`${sample}/`)?.name).toBe(name);
    expect(matchRoute(`/repo${sample}`, '/repo/')?.name).toBe(name);
    expect(typeof (await endpoint.answer())).toBe('function');
    if (endpoint.mcp !== undefined) expect(endpoint.mcp.tool).toMatch(/^[a-z_]+$/);
    // Its words (src/endpoint-docs.ts): a summary and a description, and its MCP tool's when it has one, only then.
    const docs = ENDPOINT_DOCS[name as EndpointName];
    expect(docs.summary.length).toBeGreaterThan(5);
    expect(docs.description.length).toBeGreaterThan(20);
    expect(docs.mcp !== undefined).toBe(endpoint.mcp !== undefined);
  });

  it('leaves the routes\' words out of the Service Worker\'s bundle, and the path parameters\' in (a 404 names them)', async () => {
    const { bundleScript, SCRIPTS } = await import('../builder/site.ts');
    const script = await bundleScript(SCRIPTS.find((s) => s.out === 'sw.js')!, process.cwd());
    for (const [name] of endpointList()) expect(script).not.toContain(ENDPOINT_DOCS[name as EndpointName].description.slice(0, 40));
    expect(script).toContain('owner segment of the skill id');
  });

  it('routes a last `*name` parameter over the rest of the path, each segment decoded and checked', () => {
    const params = {
      owner: { kind: 'text', pattern: /^[a-z]+$/, required: true, description: 'o' },
      file: { kind: 'text', pattern: /^(?!\.\.?$)[A-Za-z0-9._ -]+$/, required: true, rest: true, description: 'f' },
    } as const;
    const pattern = '/api/v1/x/:owner/files/*file';
    expect(matchPattern(pattern, params, '/api/v1/x/acme/files/a.md')).toEqual({ owner: 'acme', file: 'a.md' });
    expect(matchPattern(pattern, params, '/api/v1/x/acme/files/scripts/run%20me.sh')).toEqual({ owner: 'acme', file: 'scripts/run me.sh' });
    expect(matchPattern(pattern, params, '/api/v1/x/acme/files/')).toBeNull();
    expect(matchPattern(pattern, params, '/api/v1/x/acme/files/a/../b')).toBeNull();
    expect(matchPattern(pattern, params, '/api/v1/x/acme/files/a%2fb')).toBeNull();
    expect(matchPattern(pattern, params, '/api/v1/x/ACME/files/a')).toBeNull();
  });
});
