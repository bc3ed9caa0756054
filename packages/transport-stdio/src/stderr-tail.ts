/**
 * A bounded ring of the last lines a child wrote to stderr, kept so that a crash can be
 * explained. Memory is bounded by `maxLines` lines of at most `maxLineChars` characters each.
 */

/** The ring of one stream. */
export interface StderrTail {
  /** Consumes one chunk of stderr output. */
  push(chunk: Uint8Array | string): void;
  /** The last complete lines, oldest first, then the unfinished one if any. */
  lines(): string[];
}

/** Creates an empty ring. Lines longer than `maxLineChars` are cut and marked with `…`. */
export function createStderrTail(maxLines: number, maxLineChars = 1_000): StderrTail {
  const ring: string[] = [];
  const decoder = new TextDecoder("utf-8");
  let partial = "";

  function keep(line: string): void {
    if (maxLines === 0) return;
    const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
    ring.push(clean.length > maxLineChars ? `${clean.slice(0, maxLineChars)}…` : clean);
    if (ring.length > maxLines) ring.shift();
  }

  return {
    push(chunk) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
        keep(partial + text.slice(start, newline));
        partial = "";
        start = newline + 1;
      }
      // The unfinished line is capped too: a child printing without newlines costs nothing.
      if (partial.length <= maxLineChars) partial = (partial + text.slice(start)).slice(0, maxLineChars + 1);
    },
    lines() {
      const tail = partial.length > 0 ? [...ring, partial.length > maxLineChars ? `${partial.slice(0, maxLineChars)}…` : partial] : [...ring];
      return tail.slice(-Math.max(maxLines, 0) || tail.length);
    },
  };
}
