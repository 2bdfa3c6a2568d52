/**
 * src/files.ts `mediaType` and `typeOfName`: the Content-Type of a skill's file on every host, and
 * the mimeType the MCP server lists it with.
 */
import { describe, expect, it } from 'vitest';
import { mediaType, typeOfName } from '../src/files.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('the media type of a skill file', () => {
  it('types text by its extension, with a charset for textual types', () => {
    expect(mediaType('SKILL.md', text('# Skill\n'))).toBe('text/markdown; charset=utf-8');
    expect(mediaType('scripts/fill.py', text('print(1)\n'))).toBe('text/plain; charset=utf-8');
    expect(mediaType('data.json', text('{}'))).toBe('application/json; charset=utf-8');
    expect(mediaType('notes', text('plain words'))).toBe('text/plain; charset=utf-8');
    expect(mediaType('blob', new Uint8Array([0, 1, 2]))).toBe('application/octet-stream');
  });

  it('types TypeScript and Graphviz files as the text they are in a skill folder, not as video or a Word template', () => {
    expect(mediaType('scripts/run.ts', text('export const x: number = 1;\n'))).toBe('text/typescript; charset=utf-8');
    expect(mediaType('lib/mod.MTS', text('export {};\n'))).toBe('text/typescript; charset=utf-8');
    expect(mediaType('graph.dot', text('digraph { a -> b }\n'))).toBe('text/vnd.graphviz; charset=utf-8');
    // Bytes that are no text keep the type without a charset.
    expect(mediaType('clip.ts', new Uint8Array([0x47, 0, 0x11, 0xff]))).toBe('text/typescript');
    expect(typeOfName('run.ts')).toBe('text/typescript');
    expect(typeOfName('graph.gv')).toBe('text/vnd.graphviz');
    expect(typeOfName('logo.png')).toBe('image/png');
    expect(typeOfName('README')).toBeUndefined();
  });
});
