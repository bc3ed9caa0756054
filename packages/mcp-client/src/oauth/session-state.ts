/**
 * The mutable part of a session: the stored value (loaded once from the `TokenStore`, written
 * through on every change), the one operation in flight that concurrent callers share, and
 * the window of recent authorizations that stops a server that never accepts from looping us.
 */
import { OAuthError, OAuthFaultCode } from "./errors";
import type { StoredAuthorization, StoredClient, TokenStore } from "./token-store";

/** What the state needs to know. */
export interface StateSettings {
  readonly store: TokenStore;
  readonly storeKey: string;
  readonly maxAttempts: number;
  readonly attemptWindowMs: number;
  readonly server: URL;
  readonly now: () => number;
}

/** A session's state. */
export interface SessionState {
  /** The stored value (undefined before `load()` or when nothing is stored). */
  readonly value: StoredAuthorization | undefined;
  /** The operation in flight, if any. */
  readonly flight: Promise<void> | undefined;
  /** Loads the stored value once (again after a failed load). */
  load(): Promise<void>;
  /** Replaces the value and writes it through (undefined deletes the entry). */
  save(next: StoredAuthorization | undefined): Promise<void>;
  /** Keeps a dynamic registration for `issuer`. */
  saveRegistration(issuer: string, client: StoredClient): Promise<void>;
  /** Runs `task` unless an operation is in flight, in which case it waits for that one. */
  single(task: () => Promise<void>): Promise<void>;
  /** Records an authorization, or throws `ATTEMPTS_EXCEEDED` when the window is full. */
  countAttempt(): void;
  /** Forgets the recorded authorizations. */
  resetAttempts(): void;
}

/** Creates a session's state. */
export function createSessionState(settings: StateSettings): SessionState {
  let value: StoredAuthorization | undefined;
  let loading: Promise<void> | undefined;
  let flight: Promise<void> | undefined;
  let attempts: number[] = [];
  const save = async (next: StoredAuthorization | undefined): Promise<void> => {
    value = next;
    if (next === undefined) await settings.store.delete(settings.storeKey);
    else await settings.store.save(settings.storeKey, next);
  };
  return {
    get value() {
      return value;
    },
    get flight() {
      return flight;
    },
    load() {
      loading ??= settings.store.load(settings.storeKey).then(
        (loaded) => {
          value = loaded;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    save,
    saveRegistration: (issuer, client) => save({ ...value, clients: { ...value?.clients, [issuer]: client } }),
    single(task) {
      if (flight !== undefined) return flight;
      flight = task().finally(() => {
        flight = undefined;
      });
      return flight;
    },
    countAttempt() {
      const now = settings.now();
      attempts = attempts.filter((at) => now - at < settings.attemptWindowMs);
      if (attempts.length >= settings.maxAttempts) {
        throw new OAuthError(
          OAuthFaultCode.AttemptsExceeded,
          `${attempts.length} authorizations in ${settings.attemptWindowMs} ms were all answered with another challenge; giving up on ${settings.server.href} (the server keeps refusing the tokens it asked for).`,
          { detail: { attempts: attempts.length } },
        );
      }
      attempts.push(now);
    },
    resetAttempts() {
      attempts = [];
    },
  };
}
