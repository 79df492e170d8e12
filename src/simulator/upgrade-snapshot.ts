import { feeDetailsOf } from '#domain/ledger/balance-transaction.js'
import { BALANCE_TRANSACTION_OBJECT } from '#domain/ledger/ledger.js'
import { SESSION_OBJECT } from '#domain/meters/stream-sessions.js'
import { type Mode, scopeKey } from '#domain/mode.js'
import { isoTime } from '#kernel/time.js'
import type { Snapshot } from './snapshot.js'

/** A snapshot as version 2 wrote it: the same members, older contents in two state parts. */
export type SnapshotV2 = Omit<Snapshot, 'version'> & { readonly version: 2 }

/** A balance transaction as version 2's `ledger` part saved it (camelCase, epoch ms). */
interface SavedTransaction {
  readonly id: string
  readonly currency: string
  readonly amount: number
  readonly fee: number
  readonly net: number
  readonly type: string
  readonly reportingCategory: string
  readonly source: string | null
  readonly description?: string | null
  readonly created: number
  readonly availableOn: number
  readonly status: string
  readonly feeDescription?: string
}

/** Version 2's `ledger` part: per scope (`account|mode`), the transactions in posting order. */
interface SavedLedger {
  readonly books: readonly { readonly key: string; readonly transactions: readonly SavedTransaction[] }[]
}

/** A meter event session as version 2's `sessions` part saved it (epoch ms). */
interface SavedSession {
  readonly id: string
  readonly account: string
  readonly mode: string
  readonly token: string
  readonly created: number
  readonly expiresAt: number
}

/** What an engine resource's part saves: objects and deleted stubs by scope key. */
interface EnginePart {
  readonly objects: Record<string, Record<string, unknown>[]>
  readonly deleted: Record<string, unknown[]>
}

const ENGINE = 'engine.'

/** The stored object, key for key as the ledger now posts it (so later answers are the same bytes). */
function balanceTransaction(t: SavedTransaction): Record<string, unknown> {
  return {
    id: t.id,
    object: BALANCE_TRANSACTION_OBJECT,
    amount: t.amount,
    available_on: Math.floor(t.availableOn / 1000),
    balance_type: 'payments',
    created: Math.floor(t.created / 1000),
    currency: t.currency,
    description: t.description ?? null,
    exchange_rate: null,
    fee: t.fee,
    fee_details: feeDetailsOf(t.fee, t.currency, t.feeDescription),
    net: t.net,
    reporting_category: t.reportingCategory,
    source: t.source,
    status: t.status,
    type: t.type,
  }
}

/** The stored object, key for key as the sessions area now creates it. */
function meterEventSession(s: SavedSession): Record<string, unknown> {
  return {
    id: s.id,
    object: SESSION_OBJECT,
    authentication_token: s.token,
    created: isoTime(s.created),
    expires_at: isoTime(s.expiresAt),
    livemode: s.mode === 'live',
  }
}

/** Adds objects to an engine resource's part (made if the snapshot had none), scope by scope, after any it holds. */
function addToEngine(
  state: Record<string, unknown>,
  object: string,
  scoped: Iterable<readonly [string, Record<string, unknown>[]]>,
): void {
  const name = `${ENGINE}${object}`
  const had = state[name] as EnginePart | undefined
  const objects: Record<string, Record<string, unknown>[]> = { ...had?.objects }
  for (const [key, items] of scoped) {
    if (items.length > 0) objects[key] = [...(objects[key] ?? []), ...items]
  }
  // An empty resource is left out of a snapshot, as the engine itself does.
  if (Object.keys(objects).length > 0) state[name] = { objects, deleted: had?.deleted ?? {} }
}

/**
 * Upgrades a version 2 snapshot to version 3, data to data. Version 2 kept balance transactions in
 * the ledger's own part and meter event sessions in the sessions area's own part, camelCase and in
 * epoch ms; version 3 keeps both in the engine's stores as the API shows them, and those two parts
 * save `null`. Each part is upgraded where it still holds the old shape, so a version 2 snapshot
 * taken after one of the moves upgrades too. Pending work (`ledger.available`, `session.forget`)
 * has the same arguments in both versions.
 *
 * @example
 * const snapshot = upgradeSnapshot(JSON.parse(readFileSync('fixture.json', 'utf8')))
 * snapshot.version // 3
 */
export function upgradeSnapshot(old: SnapshotV2): Snapshot {
  const state: Record<string, unknown> = { ...old.state }
  const ledger = state.ledger as SavedLedger | null | undefined
  if (ledger !== null && ledger !== undefined) {
    addToEngine(
      state,
      BALANCE_TRANSACTION_OBJECT,
      ledger.books.map((b) => [b.key, b.transactions.map(balanceTransaction)] as const),
    )
    state.ledger = null
  }
  const sessions = state.sessions as readonly SavedSession[] | null | undefined
  if (Array.isArray(sessions)) {
    const byScope = new Map<string, Record<string, unknown>[]>()
    for (const s of sessions) {
      const key = scopeKey({ account: s.account, mode: s.mode as Mode })
      byScope.set(key, [...(byScope.get(key) ?? []), meterEventSession(s)])
    }
    addToEngine(state, SESSION_OBJECT, byScope)
    state.sessions = null
  }
  return { ...old, version: 3, state }
}
