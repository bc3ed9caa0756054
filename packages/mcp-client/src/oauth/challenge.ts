/**
 * A parser for `WWW-Authenticate` (RFC 9110 §11.6.1): a comma-separated list of challenges,
 * each a scheme followed by a token68 or by `name=value` parameters (token or quoted-string).
 * Hostile input never throws: what cannot be read is skipped, and headers over 16 KiB are cut.
 */

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The auth scheme, lowercased (`bearer`, `basic`, `dpop`). */
  readonly scheme: string;
  /** The parameters, names lowercased; the first occurrence of a name wins. */
  readonly params: Readonly<Record<string, string>>;
  /** The token68 form, when the challenge uses it instead of parameters. */
  readonly token68?: string;
}

/** What a Bearer challenge tells an MCP client (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallenge {
  /** `invalid_token`, `insufficient_scope`, `invalid_request`, when given. */
  readonly error?: string;
  /** The server's human-readable explanation, when given. */
  readonly errorDescription?: string;
  /** The scopes the server asks for (the `scope` parameter split on spaces), when given. */
  readonly scope?: readonly string[];
  /** The Protected Resource Metadata URL (`resource_metadata`), when given. */
  readonly resourceMetadata?: string;
}

const MAX_HEADER = 16 * 1024;
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /[A-Za-z0-9\-._~+/]/;

/** Parses every challenge of a `WWW-Authenticate` header value. */
export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const text = header.length > MAX_HEADER ? header.slice(0, MAX_HEADER) : header;
  const challenges: AuthChallenge[] = [];
  let current: { scheme: string; params: Map<string, string>; token68?: string } | undefined;
  let i = 0;
  const skip = (): void => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === ",")) i++;
  };
  const readToken = (): string => {
    const start = i;
    while (i < text.length && TCHAR.test(text[i] ?? "")) i++;
    return text.slice(start, i);
  };
  const flush = (): void => {
    if (current === undefined) return;
    const params = Object.fromEntries(current.params) as Record<string, string>;
    challenges.push(current.token68 === undefined ? { scheme: current.scheme, params } : { scheme: current.scheme, params, token68: current.token68 });
  };
  while (i < text.length) {
    skip();
    const start = i;
    const name = readToken();
    if (name === "") {
      i = Math.max(i + 1, start + 1); // an unreadable character: skip it
      continue;
    }
    let j = i;
    while (text[j] === " " || text[j] === "\t") j++;
    if (current !== undefined && text[j] === "=" && text[j + 1] !== "=") {
      i = j + 1;
      while (text[i] === " " || text[i] === "\t") i++;
      const value = text[i] === '"' ? readQuoted() : readToken();
      const key = name.toLowerCase();
      if (!current.params.has(key)) current.params.set(key, value);
      continue;
    }
    flush();
    current = { scheme: name.toLowerCase(), params: new Map() };
    while (text[i] === " " || text[i] === "\t") i++;
    const t68 = readToken68();
    if (t68 !== undefined) current.token68 = t68;
  }
  flush();
  return challenges;

  function readQuoted(): string {
    let out = "";
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\" && i + 1 < text.length) i++;
      out += text[i];
      i++;
    }
    i++; // closing quote (or end)
    return out;
  }

  function readToken68(): string | undefined {
    let j = i;
    while (j < text.length && TOKEN68.test(text[j] ?? "")) j++;
    let k = j;
    while (text[k] === "=") k++;
    const rest = text.slice(k).trimStart();
    // `name=value` (a parameter) is not a token68; `abc==` followed by a comma or the end is.
    if (j === i || (rest !== "" && !rest.startsWith(","))) return undefined;
    const value = text.slice(i, k);
    i = k;
    return value;
  }
}

/**
 * Reads the Bearer challenge of a `WWW-Authenticate` header, else its DPoP challenge (RFC 9449
 * §7.1 has the same `error`, `scope` and `resource_metadata` parameters), or undefined.
 */
export function parseBearerChallenge(header: string | undefined | null): BearerChallenge | undefined {
  if (header === undefined || header === null) return undefined;
  const challenges = parseWwwAuthenticate(header);
  const bearer = challenges.find((challenge) => challenge.scheme === "bearer") ?? challenges.find((challenge) => challenge.scheme === "dpop");
  if (bearer === undefined) return undefined;
  const p = bearer.params;
  const scope = typeof p.scope === "string" ? splitScope(p.scope) : undefined;
  return {
    ...(typeof p.error === "string" && p.error !== "" ? { error: p.error } : {}),
    ...(typeof p.error_description === "string" ? { errorDescription: p.error_description } : {}),
    ...(scope !== undefined && scope.length > 0 ? { scope } : {}),
    ...(typeof p.resource_metadata === "string" && p.resource_metadata !== "" ? { resourceMetadata: p.resource_metadata } : {}),
  };
}

/** Splits an OAuth scope string (RFC 6749 §3.3: space-delimited) into its distinct scopes. */
export function splitScope(scope: string): string[] {
  return [...new Set(scope.split(/[ \t]+/).filter((s) => s !== ""))];
}
