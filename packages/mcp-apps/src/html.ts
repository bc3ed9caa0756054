/**
 * The transport-shape test of a view's content (SEP-1865 "Content Requirements": a valid
 * HTML5 document, as text or base64). It looks at how the document starts, nothing more: it
 * does not parse, render or sanitise HTML.
 */

const LEADING = /^(?:\uFEFF)?(?:\s|<!--[\s\S]*?-->)*/;
const START = /^(?:<!doctype\s+html(?:\s[^>]*)?>|<html(?:\s[^>]*)?>)/i;

/**
 * True when `text` starts like an HTML document: after an optional byte-order mark,
 * white space and comments comes `<!doctype html>` or an `<html>` tag. A bare fragment
 * (`<div>...`) is not a document.
 */
export function isHtmlDocument(text: string): boolean {
  // Leading comments longer than 64 KiB are not worth scanning: such a text is not a view.
  const head = text.slice(0, 65_536);
  const skipped = LEADING.exec(head)?.[0].length ?? 0;
  return START.test(head.slice(skipped, skipped + 4096));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes a base64 blob to UTF-8 text; undefined when it is not canonical base64 or not UTF-8. */
export function decodeBase64Text(blob: string): string | undefined {
  if (blob.length % 4 !== 0 || !BASE64.test(blob)) return undefined;
  let binary: string;
  try {
    binary = atob(blob);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
