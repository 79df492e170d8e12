import { SESSION_VALIDITY_MS } from '#catalogue/rules.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import { DAY, isoTime } from '#kernel/time.js'
import type { Kernel } from '../kernel.js'
import type { Mode, Scope } from '../mode.js'
import { tableError } from '../service-error.js'

/** Validity of a meter event session token. */
export const SESSION_TTL = SESSION_VALIDITY_MS

export interface MeterEventSession {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly token: string
  readonly created: number
  /** Epoch ms; may be brought forward by the early-expiry fault. */
  expiresAt: number
}

/**
 * Meter event sessions: short-lived tokens that alone authenticate the meter event stream. A token
 * works until `expires_at` (exclusive) and then answers 401 `billing_meter_event_session_expired`
 * with the `temporary_session_expired` type the official client maps to its session-expired error.
 *
 * @example
 * const s = sessions.create({ account: 'acct_1', mode: 'test' })
 * sessions.authenticate(s.token) // the session, until 15 minutes have passed
 */
export interface Sessions {
  create(scope: Scope): MeterEventSession
  authenticate(token: string): MeterEventSession
  isToken(credential: string): boolean
  get(id: string): MeterEventSession | undefined
  /** Ends a session now (the early-expiry fault, or a test that wants it). */
  expire(id: string): void
}

export function createSessions(kernel: Kernel): Sessions {
  const byToken = new Map<string, MeterEventSession>()
  const byId = new Map<string, MeterEventSession>()

  function forget(session: MeterEventSession): void {
    byToken.delete(session.token)
    byId.delete(session.id)
  }

  const forgetTask = kernel.scheduler.define<{ id: string }>('session.forget', ({ id }) => {
    const session = byId.get(id)
    if (session !== undefined) forget(session)
  })

  kernel.state.register('sessions', {
    save: () => toPlain([...byId.values()]),
    load(data) {
      byId.clear()
      byToken.clear()
      for (const s of fromPlain<MeterEventSession[]>(data)) {
        byId.set(s.id, s)
        byToken.set(s.token, s)
      }
    },
  })

  return {
    create(scope) {
      const now = kernel.clock.now
      const session: MeterEventSession = {
        id: kernel.ids.next('mes', 24),
        account: scope.account,
        mode: scope.mode,
        token: kernel.ids.next(`ek_${scope.mode}`, 48),
        created: now,
        expiresAt: now + SESSION_TTL,
      }
      byToken.set(session.token, session)
      byId.set(session.id, session)
      // Expired tokens are remembered for a day so they keep answering "expired", then forgotten.
      forgetTask.at(session.expiresAt + DAY, { id: session.id })
      kernel.trace.append('session.created', {
        id: session.id,
        account: scope.account,
        mode: scope.mode,
        expires_at: session.expiresAt,
      })
      return session
    },
    authenticate(token) {
      const session = byToken.get(token)
      if (session === undefined) {
        throw tableError('session_token_invalid')
      }
      if (kernel.clock.now >= session.expiresAt) {
        throw tableError('billing_meter_event_session_expired', { id: session.id, expires_at: isoTime(session.expiresAt) })
      }
      return session
    },
    isToken: (credential) => credential.startsWith('ek_'),
    get: (id) => byId.get(id),
    expire(id) {
      const session = byId.get(id)
      if (session !== undefined && session.expiresAt > kernel.clock.now) {
        session.expiresAt = kernel.clock.now
        kernel.trace.append('session.expired', { id })
      }
    },
  }
}
