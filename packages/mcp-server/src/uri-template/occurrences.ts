/** Where a literal occurs in a URI, found with Knuth-Morris-Pratt: linear, whatever the input. */

/** Calls `mark(p)` for each position `p` where `needle` occurs in `haystack` (Knuth-Morris-Pratt: linear, whatever the input). */
export function forEachOccurrence(haystack: string, needle: string, mark: (position: number) => void): void {
  const fail = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1] ?? 0;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < haystack.length; i++) {
    while (k > 0 && haystack.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1] ?? 0;
    if (haystack.charCodeAt(i) === needle.charCodeAt(k)) k++;
    if (k === needle.length) {
      mark(i - k + 1);
      k = fail[k - 1] ?? 0;
    }
  }
}

/** Marks (with 1) every position where `needle` starts in `haystack`. */
export function occurrences(haystack: string, needle: string): Uint8Array {
  const found = new Uint8Array(haystack.length + 1);
  forEachOccurrence(haystack, needle, (p) => {
    found[p] = 1;
  });
  return found;
}
