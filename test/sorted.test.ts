/** The one binary search (src/sorted.ts) agrees with a linear scan on any sorted array (property). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerBound, sortedIndexOf, upperBound } from '../src/sorted.ts';

describe('sorted-array search', () => {
  it('lowerBound, upperBound and sortedIndexOf agree with a linear scan', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 })), fc.integer({ min: -25, max: 25 }), (values, value) => {
        const sorted = [...values].sort((a, b) => a - b);
        expect(lowerBound(sorted, value)).toBe(sorted.filter((v) => v < value).length);
        expect(upperBound(sorted, value)).toBe(sorted.filter((v) => v <= value).length);
        const index = sortedIndexOf(sorted, value);
        expect(index).toBe(sorted.includes(value) ? sorted.indexOf(value) : -1);
      }),
      { numRuns: 2000 },
    );
  });

  it('works on strings in code-unit order', () => {
    const terms = ['api', 'docker', 'kube', 'kubectl', 'zsh'];
    expect(lowerBound(terms, 'kub')).toBe(2);
    expect(upperBound(terms, 'kube')).toBe(3);
    expect(sortedIndexOf(terms, 'kubectl')).toBe(3);
    expect(sortedIndexOf(terms, 'kubelet')).toBe(-1);
  });
});
