/** Small helpers shared by the everything server's tools and the demo. */
import type { CreateMessageResult } from "@proto/mcp-protocol";

/** Waits `ms`, or less when `signal` aborts first (a cancelled call stops waiting). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** The text of a sampling answer (one content block or several); "No response" when it has none. */
export function sampledText(result: CreateMessageResult): string {
  const blocks: readonly { readonly type: string; readonly text?: unknown }[] = Array.isArray(result.content) ? result.content : [result.content];
  const texts = blocks.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : []));
  return texts.length > 0 ? texts.join("\n") : "No response";
}

/** The message of anything thrown. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
