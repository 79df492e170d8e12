import type { Mode } from '../mode.js'

/** The keys of one account, per mode. */
export interface AccountKeys {
  readonly secret: Readonly<Record<Mode, string>>
  readonly publishable: Readonly<Record<Mode, string>>
}

/**
 * An account of the simulated service: the platform, or a connected account owned by a platform.
 * `organisation` groups accounts for organisation-scoped events and `Service-Context`.
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
  email: string | undefined
  country: string
  type: 'standard' | 'express' | 'custom' | undefined
  metadata: Record<string, string>
  /** Modes the account exists in (a connected account created with a test key exists only in test). */
  readonly modes: Set<Mode>
}

/** An organisation: a group of accounts whose events can be received together. */
export interface Organisation {
  readonly id: string
  readonly name: string
  readonly accounts: Set<string>
}
