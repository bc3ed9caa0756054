/**
 * Percent-encoding for RFC 6570 expansion (section 1.6: UTF-8, upper-case hex) and the
 * inverse used by matching. Native `encodeURIComponent`/`encodeURI` do the bulk work; the
 * few characters they leave or escape differently from RFC 6570 are fixed up after.
 */
import { isHexCode } from "./operators";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SUB_DELIMS_LEFT_BY_COMPONENT = /[!'()*]/g;
const BRACKETS = /%5B|%5D/g;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

function hexEscape(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
}

function component(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(wellFormed(text));
  }
}

function uri(text: string): string {
  let out: string;
  try {
    out = encodeURI(text);
  } catch {
    out = encodeURI(wellFormed(text));
  }
  return out.includes("%5") ? out.replace(BRACKETS, (m) => (m === "%5B" ? "[" : "]")) : out;
}

const UNRESERVED_ONLY = /^[A-Za-z0-9._~-]*$/;
const NEEDS_FIXUP = /[!'()*]/;

/** Encodes every character outside the unreserved set (RFC 6570 "U"). */
export function encodeUnreserved(text: string): string {
  if (UNRESERVED_ONLY.test(text)) return text;
  const encoded = component(text);
  return NEEDS_FIXUP.test(encoded) ? encoded.replace(SUB_DELIMS_LEFT_BY_COMPONENT, hexEscape) : encoded;
}

/**
 * Encodes every character outside unreserved and reserved (RFC 6570 "U+R"), keeping
 * percent-triplets already present; a `%` that starts no triplet becomes `%25`.
 */
export function encodeReserved(text: string): string {
  if (UNRESERVED_ONLY.test(text)) return text;
  if (!text.includes("%")) return uri(text);
  let out = "";
  let start = 0;
  for (let i = text.indexOf("%"); i !== -1; i = text.indexOf("%", i + 1)) {
    const triplet = isHexCode(text.charCodeAt(i + 1)) && isHexCode(text.charCodeAt(i + 2));
    out += uri(text.slice(start, i)) + (triplet ? text.slice(i, i + 3) : "%25");
    start = triplet ? i + 3 : i + 1;
    if (triplet) i += 2;
  }
  return out + uri(text.slice(start));
}

/** Encodes a value for an operator: `reserved` selects U+R (`+`, `#`), else U. */
export function encodeValue(text: string, reserved: boolean): string {
  return reserved ? encodeReserved(text) : encodeUnreserved(text);
}

/**
 * Decodes a matched value; `undefined` when its percent-encoding is malformed (so the URI
 * does not match). Reserved expansion keeps the escapes of reserved characters, as
 * `decodeURI` does, because `{+x}` passes those through unencoded.
 */
export function decodeValue(text: string, reserved: boolean): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return reserved ? decodeURI(text) : decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Truncates a value to its first `max` characters (code points, RFC 6570 section 2.4.1);
 * in reserved expansion a percent-triplet counts as one character and is never split.
 */
export function truncate(text: string, max: number, reserved: boolean): string {
  let count = 0;
  let i = 0;
  while (i < text.length && count < max) {
    const code = text.charCodeAt(i);
    if (reserved && code === 0x25 && isHexCode(text.charCodeAt(i + 1)) && isHexCode(text.charCodeAt(i + 2))) i += 3;
    else i += isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    count++;
  }
  return text.slice(0, i);
}
