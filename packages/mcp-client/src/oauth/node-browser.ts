/**
 * Opens a URL in the user's browser (Node only) without ever involving a shell: the URL is
 * one argument of `open` (macOS), `rundll32 url.dll,FileProtocolHandler` (Windows) or
 * `xdg-open` (elsewhere), spawned with `shell: false`. Only http and https URLs are opened.
 * This is the guard against mcp-remote's CVE-2025-6514, where a server-supplied URL reached
 * a shell.
 */
import { spawn as nodeSpawn } from "node:child_process";
import { OAuthError, OAuthFaultCode } from "./errors";

/** Options of `openBrowser` (injectable for tests). */
export interface OpenBrowserOptions {
  /** Default: `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** Default: `child_process.spawn`. */
  readonly spawn?: typeof nodeSpawn;
}

/** The program and arguments that open `url` on `platform`. */
export function browserCommand(url: string, platform: NodeJS.Platform): { command: string; args: string[] } {
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") return { command: "rundll32", args: ["url.dll,FileProtocolHandler", url] };
  return { command: "xdg-open", args: [url] };
}

/**
 * Opens `url` in the default browser. Resolves once the opener started; rejects with
 * `INVALID_CALLBACK` for a non-http(s) URL, or with the spawn error (no opener installed).
 */
export function openBrowser(url: URL | string, options: OpenBrowserOptions = {}): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    return Promise.reject(new OAuthError(OAuthFaultCode.InvalidCallback, "Refusing to open something that is not an absolute URL.", { cause }));
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return Promise.reject(new OAuthError(OAuthFaultCode.InvalidCallback, `Refusing to open a ${parsed.protocol} URL; only http and https are opened.`));
  }
  const platform = options.platform ?? process.platform;
  const { command, args } = browserCommand(parsed.href, platform);
  const spawn = options.spawn ?? nodeSpawn;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, stdio: "ignore", detached: platform !== "win32", windowsHide: true });
    child.once("error", (error) => reject(new Error(`Could not start ${command} to open the browser: ${error.message}. Open the URL by hand.`, { cause: error })));
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}
