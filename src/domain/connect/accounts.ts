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
  const byId = new Map<string, Account>()
  const keys = new Map<string, KeyInfo>()
  const orgs = new Map<string, Organisation>()
  const own = {
    apply(saved: SavedAccounts): void {
      byId.clear()
      keys.clear()
      orgs.clear()
      for (const account of saved.accounts) {
        byId.set(account.id, account)
        for (const mode of ['test', 'live'] as const) {
          keys.set(account.keys.secret[mode], { account, mode, kind: 'secret' })
          keys.set(account.keys.publishable[mode], { account, mode, kind: 'publishable' })
        }
      }
      for (const org of saved.orgs) orgs.set(org.id, org)
      loaded = byId.get(saved.platform) as Account
    },
  }

  function create(input: CreateAccountInput = {}): Account {
    const problem = input.apiVersion === undefined ? undefined : versionProblem(input.apiVersion)
    if (problem !== undefined) throw new TypeError(`createAccount: ${problem}`)
    if (input.platform !== undefined && !byId.has(input.platform)) {
      throw tableError('resource_missing', { kind: 'platform account', id: input.platform }, { param: 'platform', status: 400 })
    }
    const id = kernel.ids.next('acct', 16)
    const token = (kind: string, mode: Mode) => kernel.ids.next(`${kind}_${mode}`, 24)
    const account: Account = {
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
    byId.set(id, account)
    for (const mode of ['test', 'live'] as const) {
      keys.set(account.keys.secret[mode], { account, mode, kind: 'secret' })
      keys.set(account.keys.publishable[mode], { account, mode, kind: 'publishable' })
    }
    kernel.trace.append('account.created', { id, platform: input.platform })
    return account
  }

  let loaded: Account | undefined = restoring ? undefined : create()
  const platformAccount = (): Account => {
    if (loaded === undefined) throw new Error('accounts: the platform account is read before the state is loaded')
    return loaded
  }

  interface SavedAccounts {
    accounts: Account[]
    orgs: Organisation[]
    platform: string
  }

  kernel.state.register('accounts', {
    save() {
      return toPlain({ accounts: [...byId.values()], orgs: [...orgs.values()], platform: platformAccount().id })
    },
    load(data) {
      own.apply(fromPlain<SavedAccounts>(data))
    },
    // A fork's accounts: each record and set new as it loads them (an account's version and
    // organisation change in place; one copy may be loaded by many forks), the nested readonly
    // parts (keys, opening) shared.
    copy(): SavedAccounts {
      return { accounts: [...byId.values()], orgs: [...orgs.values()], platform: platformAccount().id }
    },
    loadCopy(data) {
      const copied = data as SavedAccounts
      own.apply({
        accounts: copied.accounts.map((a) => ({ ...a, modes: new Set(a.modes) })),
        orgs: copied.orgs.map((o) => ({ ...o, accounts: new Set(o.accounts) })),
        platform: copied.platform,
      })
    },
  })

  return {
    get platform() {
      return platformAccount()
    },
    create,
    defaultVersion,
    get(id) {
      return byId.get(id)
    },
    close(id) {
      const account = byId.get(id)
      if (account === undefined) return
      byId.delete(id)
      for (const mode of ['test', 'live'] as const) {
        keys.delete(account.keys.secret[mode])
        keys.delete(account.keys.publishable[mode])
      }
      if (account.organisation !== undefined) orgs.get(account.organisation)?.accounts.delete(id)
      kernel.trace.append('account.closed', { id })
    },
    byKey(key) {
      return keys.get(key)
    },
    list() {
      return [...byId.values()]
    },
    createOrganisation(input) {
      for (const id of input.accounts) {
        const account = byId.get(id)
        if (account === undefined)
          throw tableError('resource_missing', { kind: 'account', id }, { param: 'accounts', status: 400 })
        if (account.organisation !== undefined) {
          throw invalidRequest(`Account '${id}' already belongs to organisation '${account.organisation}'`, {
            param: 'accounts',
          })
        }
      }
      const id = kernel.ids.next('org', 16)
      const org: Organisation = { id, name: input.name ?? id, accounts: new Set(input.accounts) }
      for (const a of input.accounts) (byId.get(a) as Account).organisation = id
      orgs.set(id, org)
      kernel.trace.append('organisation.created', { id, accounts: input.accounts })
      return org
    },
    organisation(id) {
      return orgs.get(id)
    },
    organisations() {
      return [...orgs.values()]
    },
    controls(actor, target) {
      return actor.id === target.id || target.platform === actor.id
    },
    sameOrganisation(a, b) {
      return a.organisation !== undefined && a.organisation === b.organisation
    },
  }
}
