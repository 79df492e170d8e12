import { SESSION_VALIDITY_MS } from '#catalogue/rules.js'
import type { TaskKind } from '#kernel/scheduler.js'
import { DAY, isoTime } from '#kernel/time.js'
import type { Resource } from '../engine/resource.js'
import type { Kernel } from '../kernel-parts.js'
import type { Mode, Scope } from '../mode.js'
import { tableError } from '../service-error.js'

/** Validity of a meter event session token. */
export const SESSION_TTL = SESSION_VALIDITY_MS

/** The object the engine stores for the declared `v2.billing.meter_event_session` resource. */
export const SESSION_OBJECT = 'v2.billing.meter_event_session'

/**
 * What the stream's authentication needs of a session, derived from the stored object (its scope,
 * and `expires_at` in epoch ms so the hot path compares numbers).
 */
export interface SessionKey {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly token: string
  /** Epoch ms; brought forward with the stored `expires_at` by the early-expiry fault. */
  expiresAt: number
}

/**
 * Meter event sessions: short-lived tokens that alone authenticate the meter event stream. A token
 * works until `expires_at` (exclusive) and then answers 401 `billing_meter_event_session_expired`
 * with the `temporary_session_expired` type the official client maps to its session-expired error.
 * The sessions are the engine's `v2.billing.meter_event_session` objects, kept as the API shows
 * them; the token index is derived from them and rebuilt after a snapshot load.
 *
 * @example
 * const s = sessions.create({ account: 'acct_1', mode: 'test' })
 * sessions.authenticate(String(s.authentication_token)) // its key, until 15 minutes have passed
 */
export interface Sessions {
  /** Makes and stores a session; answers the stored object. */
  create(scope: Scope): Record<string, unknown>
  authenticate(token: string): SessionKey
  isToken(credential: string): boolean
  get(id: string): SessionKey | undefined
  /** Ends a session now (the early-expiry fault, or a test that wants it). */
  expire(id: string): void
  /**
   * The ids of the sessions whose tokens still work, oldest first: of one account (both modes),
   * or of every account (what the early-expiry fault ends).
   */
  live(account?: string): string[]
}

/**
 * Sessions over the engine's store of `v2.billing.meter_event_session` objects.
 *
 * @example
 * const sessions = createSessions(kernel, () => engine.resource(SESSION_OBJECT))
 */
export function createSessions(kernel: Kernel, resource: () => Resource): Sessions {
  return new SessionBook(kernel, resource)
}

/** The token and id indexes of the stored sessions, and the task that forgets an expired one. */
class SessionBook implements Sessions {
  readonly #kernel: Kernel
  readonly #resource: () => Resource
  readonly #byToken = new Map<string, SessionKey>()
  readonly #byId = new Map<string, SessionKey>()
  // A snapshot carries the objects once (in the engine's part); the index follows them on first use.
  #stale = false
  readonly #forgetTask: TaskKind<{ id: string }>

  constructor(kernel: Kernel, resource: () => Resource) {
    this.#kernel = kernel
    this.#resource = resource
    this.#forgetTask = kernel.scheduler.define<{ id: string }>('session.forget', ({ id }) => {
      this.#index()
      const key = this.#byId.get(id)
      if (key === undefined) return
      this.#byToken.delete(key.token)
      this.#byId.delete(id)
      resource().discard(key, id)
    })
    kernel.state.register('sessions', {
      // The index has nothing of its own to save.
      save() {
        return null
      },
      load: () => {
        this.#stale = true
      },
    })
  }

  create(scope: Scope): Record<string, unknown> {
    this.#index()
    const kernel = this.#kernel
    const now = kernel.clock.now
    const id = kernel.ids.next('mes', 24)
    const token = kernel.ids.next(`ek_${scope.mode}`, 48)
    const expiresAt = now + SESSION_TTL
    const session = this.#resource().insert(scope, {
      id,
      object: SESSION_OBJECT,
      authentication_token: token,
      created: isoTime(now),
      expires_at: isoTime(expiresAt),
      livemode: scope.mode === 'live',
    })
    const key: SessionKey = { id, account: scope.account, mode: scope.mode, token, expiresAt }
    this.#byToken.set(token, key)
    this.#byId.set(id, key)
    // Expired tokens are remembered for a day so they keep answering "expired", then forgotten.
    this.#forgetTask.at(expiresAt + DAY, { id })
    kernel.trace.append('session.created', { id, account: scope.account, mode: scope.mode, expires_at: expiresAt })
    return session
  }

  authenticate(token: string): SessionKey {
    this.#index()
    const key = this.#byToken.get(token)
    if (key === undefined) {
      throw tableError('session_token_invalid')
    }
    if (this.#kernel.clock.now >= key.expiresAt) {
      throw tableError('billing_meter_event_session_expired', { id: key.id, expires_at: isoTime(key.expiresAt) })
    }
    return key
  }

  isToken(credential: string): boolean {
    return credential.startsWith('ek_')
  }

  get(id: string): SessionKey | undefined {
    this.#index()
    return this.#byId.get(id)
  }

  expire(id: string): void {
    this.#index()
    const key = this.#byId.get(id)
    const now = this.#kernel.clock.now
    if (key !== undefined && key.expiresAt > now) {
      key.expiresAt = now
      this.#resource().put(key, id, { expires_at: isoTime(key.expiresAt) })
      this.#kernel.trace.append('session.expired', { id })
    }
  }

  live(account?: string): string[] {
    this.#index()
    const now = this.#kernel.clock.now
    const ids: string[] = []
    for (const key of this.#byId.values()) {
      if (key.expiresAt > now && (account === undefined || key.account === account)) ids.push(key.id)
    }
    return ids
  }

  #index(): void {
    if (!this.#stale) return
    this.#stale = false
    this.#byToken.clear()
    this.#byId.clear()
    const keys: { key: SessionKey; created: number }[] = []
    this.#resource().each((scope, o) => {
      const key: SessionKey = {
        id: String(o.id),
        account: scope.account,
        mode: scope.mode,
        token: String(o.authentication_token),
        expiresAt: Date.parse(String(o.expires_at)),
      }
      keys.push({ key, created: Date.parse(String(o.created)) })
    })
    // The store keeps each scope's objects in order; across scopes, creation time restores the
    // order `live` answers in (a stable sort keeps the store's order within one instant).
    keys.sort((a, b) => a.created - b.created)
    for (const { key } of keys) {
      this.#byToken.set(key.token, key)
      this.#byId.set(key.id, key)
    }
  }
}
