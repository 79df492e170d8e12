import type { Mode } from '../mode.js'

/** The keys of one account, per mode. */
export interface AccountKeys {
  readonly secret: Readonly<Record<Mode, string>>
  readonly publishable: Readonly<Record<Mode, string>>
}

/**
 * What an account set up without the API (the platform, `sim.admin.createAccount`) was opened with:
 * its API object is made from these the first time a request needs it, and holds them from then on.
 */
export interface AccountOpening {
  /** True for an account the operator set up (onboarded: nothing due); false when opened through the API. */
  readonly onboarded: boolean
  readonly email?: string
  readonly country?: string
  readonly type?: 'standard' | 'express' | 'custom'
  readonly metadata?: Readonly<Record<string, string>>
}

/**
 * An account of the simulated service as authentication sees it: the platform, or a connected
 * account owned by a platform, its keys and modes. `organisation` groups accounts for
 * organisation-scoped events and `Service-Context`. The account as the API shows it (`email`,
 * `capabilities`, `settings`, ...) is the engine's `account` object, not this record.
 */
export interface Account {
  readonly id: string
  readonly object: 'account'
  /** The platform that owns this connected account; undefined for a platform. */
  readonly platform: string | undefined
  readonly keys: AccountKeys
  readonly created: number
  /** The account's default API version; fixes the structure of the events it emits. */
  apiVersion: string
  organisation: string | undefined
  /** The facts its API object starts from when it was not opened through the API. */
  readonly opening: AccountOpening
  /** Modes the account exists in (a connected account created with a test key exists only in test). */
  readonly modes: Set<Mode>
  /** Set once its OAuth authorization code has been exchanged: a code is single-use. */
  oauthCodeSpent?: true
}

/** An organisation: a group of accounts whose events can be received together. */
export interface Organisation {
  readonly id: string
  readonly name: string
  readonly accounts: Set<string>
}
