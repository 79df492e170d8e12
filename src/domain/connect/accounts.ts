import { versionProblem } from '#catalogue/versions.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Kernel } from '../kernel-parts.js'
import type { Mode } from '../mode.js'
import { invalidRequest, tableError } from '../service-error.js'
import type { Account, Organisation } from './account.js'

/** What a key string identifies. */
export interface KeyInfo {
  readonly account: Account
  readonly mode: Mode
  readonly kind: 'secret' | 'publishable'
}

export interface CreateAccountInput {
  /** The owning platform; omitted for a new platform account. */
  platform?: string
  email?: string
  country?: string
  type?: 'standard' | 'express' | 'custom'
  metadata?: Record<string, string>
  apiVersion?: string
  /**
   * False for an account opened through the API, which starts with its requirements due; true
   * (default) for an account the operator sets up, which is onboarded: its capabilities active.
   */
  onboarded?: boolean
  /** Modes the account exists in. Default both. */
  modes?: Mode[]
}

/**
 * The accounts registry: platforms, their connected accounts, organisations, and the key index
 * used to authenticate requests.
 *
 * @example
 * const accounts = createAccounts(kernel, '2026-10-28.endive')
 * const platform = accounts.platform
 * const connected = accounts.create({ platform: platform.id })
 */
export interface Accounts {
  readonly platform: Account
  create(input?: CreateAccountInput): Account
  get(id: string): Account | undefined
  /**
   * Closes a connected account (`accounts.del`): its keys stop authenticating and no request can
   * act for it again; its objects stay where they were, out of reach.
   */
  close(id: string): void
  /**
   * Ends a platform's OAuth connection to an account: closed as by `close`, and remembered as
   * revoked, so a refusal to act for it says that application access may have been revoked.
   */
  revoke(id: string): void
  /** True when the account's connection was ended by its platform (`revoke`). */
  revoked(id: string): boolean
  byKey(key: string): KeyInfo | undefined
  list(): Account[]
  createOrganisation(input: { name?: string; accounts: string[] }): Organisation
  organisation(id: string): Organisation | undefined
  organisations(): Organisation[]
  /** True when `actor` may act for `target`: itself, or a connected account it owns. */
  controls(actor: Account, target: Account): boolean
  /** True when both accounts belong to one organisation. */
  sameOrganisation(a: Account, b: Account): boolean
  readonly defaultVersion: string
}

/**
 * The accounts area. `restoring`: state is loaded right after construction (a fork, a snapshot),
 * so the platform account a new simulation starts with is not made (its draws and trace entry
 * would be replaced at once).
 *
 * @example
 * const accounts = createAccounts(kernel, '2026-10-28.endive')
 * accounts.platform.keys.secret.test // 'sk_test_...'
 */
export function createAccounts(kernel: Kernel, defaultVersion: string, restoring = false): Accounts {
  return new AccountRegistry(kernel, defaultVersion, restoring)
}

/** What the accounts area saves: every account and organisation, and which account is the platform. */
interface SavedAccounts {
  accounts: Account[]
  orgs: Organisation[]
  platform: string
  /** Accounts whose connection was revoked; absent when none (older snapshots lack it). */
  revoked?: string[]
}

/**
 * The accounts area's state and operations. A class: it is made per simulation (every fork), and
 * its methods on the prototype cost nothing per instance.
 */
class AccountRegistry implements Accounts {
  readonly defaultVersion: string
  private readonly kernel: Kernel
  private readonly byId = new Map<string, Account>()
  private readonly keys = new Map<string, KeyInfo>()
  private readonly orgs = new Map<string, Organisation>()
  private readonly revokedIds = new Set<string>()
  private loaded: Account | undefined

  constructor(kernel: Kernel, defaultVersion: string, restoring: boolean) {
    this.kernel = kernel
    this.defaultVersion = defaultVersion
    this.loaded = restoring ? undefined : this.create()
    kernel.state.register('accounts', {
      save: () => toPlain(this.copy()),
      load: (data) => this.apply(fromPlain<SavedAccounts>(data)),
      // A fork's accounts: each record and set new as it loads them (an account's version and
      // organisation change in place; one copy may be loaded by many forks), the nested readonly
      // parts (keys, opening) shared.
      copy: (): SavedAccounts => this.copy(),
      loadCopy: (data) => {
        const copied = data as SavedAccounts
        this.apply({
          accounts: copied.accounts.map((a) => ({ ...a, modes: new Set(a.modes) })),
          orgs: copied.orgs.map((o) => ({ ...o, accounts: new Set(o.accounts) })),
          platform: copied.platform,
          ...(copied.revoked === undefined ? {} : { revoked: [...copied.revoked] }),
        })
      },
    })
  }

  get platform(): Account {
    if (this.loaded === undefined) throw new Error('accounts: the platform account is read before the state is loaded')
    return this.loaded
  }

  create(input: CreateAccountInput = {}): Account {
    const problem = input.apiVersion === undefined ? undefined : versionProblem(input.apiVersion)
    if (problem !== undefined) throw new TypeError(`createAccount: ${problem}`)
    if (input.platform !== undefined && !this.byId.has(input.platform)) {
      throw tableError('resource_missing', { kind: 'platform account', id: input.platform }, { param: 'platform', status: 400 })
    }
    const account = newAccount(this.kernel, input, this.defaultVersion)
    this.byId.set(account.id, account)
    indexKeys(this.keys, account)
    this.kernel.trace.append('account.created', { id: account.id, platform: input.platform })
    return account
  }

  get(id: string): Account | undefined {
    return this.byId.get(id)
  }

  close(id: string): void {
    const account = this.byId.get(id)
    if (account === undefined) return
    this.byId.delete(id)
    for (const mode of ['test', 'live'] as const) {
      this.keys.delete(account.keys.secret[mode])
      this.keys.delete(account.keys.publishable[mode])
    }
    if (account.organisation !== undefined) this.orgs.get(account.organisation)?.accounts.delete(id)
    this.kernel.trace.append('account.closed', { id })
  }

  revoke(id: string): void {
    this.close(id)
    this.revokedIds.add(id)
  }

  revoked(id: string): boolean {
    return this.revokedIds.has(id)
  }

  byKey(key: string): KeyInfo | undefined {
    return this.keys.get(key)
  }

  list(): Account[] {
    return [...this.byId.values()]
  }

  createOrganisation(input: { name?: string; accounts: string[] }): Organisation {
    for (const id of input.accounts) {
      const account = this.byId.get(id)
      if (account === undefined) throw tableError('resource_missing', { kind: 'account', id }, { param: 'accounts', status: 400 })
      if (account.organisation !== undefined) {
        throw invalidRequest(`Account '${id}' already belongs to organisation '${account.organisation}'`, {
          param: 'accounts',
        })
      }
    }
    const id = this.kernel.ids.next('org', 16)
    const org: Organisation = { id, name: input.name ?? id, accounts: new Set(input.accounts) }
    for (const a of input.accounts) (this.byId.get(a) as Account).organisation = id
    this.orgs.set(id, org)
    this.kernel.trace.append('organisation.created', { id, accounts: input.accounts })
    return org
  }

  organisation(id: string): Organisation | undefined {
    return this.orgs.get(id)
  }

  organisations(): Organisation[] {
    return [...this.orgs.values()]
  }

  controls(actor: Account, target: Account): boolean {
    return actor.id === target.id || target.platform === actor.id
  }

  sameOrganisation(a: Account, b: Account): boolean {
    return a.organisation !== undefined && a.organisation === b.organisation
  }

  /** The saved form, its records shared with the live maps (a save turns it to plain data at once). */
  private copy(): SavedAccounts {
    const revoked = this.revokedIds.size === 0 ? {} : { revoked: [...this.revokedIds] }
    return { accounts: [...this.byId.values()], orgs: [...this.orgs.values()], platform: this.platform.id, ...revoked }
  }

  /** Replaces every account, key and organisation with the saved ones. */
  private apply(saved: SavedAccounts): void {
    this.byId.clear()
    this.keys.clear()
    this.orgs.clear()
    this.revokedIds.clear()
    for (const id of saved.revoked ?? []) this.revokedIds.add(id)
    for (const account of saved.accounts) {
      this.byId.set(account.id, account)
      indexKeys(this.keys, account)
    }
    for (const org of saved.orgs) this.orgs.set(org.id, org)
    this.loaded = this.byId.get(saved.platform) as Account
  }
}

/** A new account: its id, then its four keys of each mode, drawn in that order. */
function newAccount(kernel: Kernel, input: CreateAccountInput, defaultVersion: string): Account {
  const id = kernel.ids.next('acct', 16)
  const token = (kind: string, mode: Mode) => kernel.ids.next(`${kind}_${mode}`, 24)
  return {
    id,
    object: 'account',
    platform: input.platform,
    keys: {
      secret: { test: token('sk', 'test'), live: token('sk', 'live') },
      publishable: { test: token('pk', 'test'), live: token('pk', 'live') },
    },
    created: kernel.clock.now,
    apiVersion: input.apiVersion ?? defaultVersion,
    organisation: undefined,
    opening: {
      onboarded: input.onboarded ?? true,
      ...(input.email === undefined ? {} : { email: input.email }),
      ...(input.country === undefined ? {} : { country: input.country }),
      ...(input.type === undefined ? {} : { type: input.type }),
      ...(input.metadata === undefined ? {} : { metadata: { ...input.metadata } }),
    },
    modes: new Set(input.modes ?? ['test', 'live']),
  }
}

/** Indexes an account's secret and publishable keys of both modes. */
function indexKeys(keys: Map<string, KeyInfo>, account: Account): void {
  for (const mode of ['test', 'live'] as const) {
    keys.set(account.keys.secret[mode], { account, mode, kind: 'secret' })
    keys.set(account.keys.publishable[mode], { account, mode, kind: 'publishable' })
  }
}
