/**
 * The 1 MiB-class Markdown documents of issue 15's page attack (and an ordinary long SKILL.md to
 * compare with), for `bench:markdown` and `bench:abuse`.
 */
export const HOSTILE_MARKDOWN: Readonly<Record<string, string>> = {
  'backtick runs of decreasing length': Array.from({ length: 1447 }, (_, i) => '`'.repeat(1447 - i)).join(' '),
  'nested emphasis': '*a **b '.repeat(150_000),
  'unclosed brackets and links': '[a](b [c]( '.repeat(100_000),
  'deep lists': Array.from({ length: 40_000 }, (_, i) => `${' '.repeat(i % 40)}- item`).join('\n'),
  'deep quotes': `${'> '.repeat(40)}x\n`.repeat(12_000),
  'a long ordinary SKILL.md': `# Title\n\nSome **bold** text, \`code\`, [a link](https://example.com).\n\n- one\n- two\n\n\`\`\`sh\necho hi\n\`\`\`\n\n`.repeat(8_000),
};
