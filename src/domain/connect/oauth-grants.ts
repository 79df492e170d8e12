import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Mode } from '../mode.js'
import type { Account } from './account.js'
import type { Accounts } from './accounts.js'

/** An OAuth refusal as the provider's connect host answers it: a flat `{ error, error_description }`, 400. */
export class OAuthError extends Error {
  readonly error: string
  constructor(error: string, description: string) {
    super(description)
    this.name = 'OAuthError'
    this.error = error
  }
}

/** What a token exchange answers (`stripe.oauth.token`). */
export interface OAuthToken {
  readonly access_token: string
  readonly livemode: boolean
  readonly refresh_token: string
  readonly token_type: 'bearer'
  readonly stripe_publishable_key: string
  readonly stripe_user_id: string
  readonly scope: string
}

/** The platform's OAuth client id (`ca_…`), fixed by its account id. */
export function clientIdOf(platform: Account): string {
  return `ca_${platform.id.slice(5)}`
}

/**
 * The authorization code of a connection (`ac_…`): it names the connected account, so it needs
 * no storage of its own; its exchange spends it (the account remembers that, snapshots included).
 *
 * @example
 * codeOf(account) // 'ac_1Pgc…'
 */
export function codeOf(account: Account): string {
  return `ac_${account.id.slice(5)}`
}

const refreshOf = (account: Account) => `rt_${account.id.slice(5)}`

/**
 * Connects a new Standard account to the platform, as a user who fills the authorize page and
 * accepts does, and answers its authorization code.
 *
 * @example
 * authorize(accounts, accounts.platform, 'test') // { code: 'ac_…', account }
 */
export function authorize(accounts: Accounts, platform: Account, mode: Mode): { code: string; account: Account } {
  const account = accounts.create({ platform: platform.id, type: 'standard', onboarded: true, modes: [mode] })
  return { code: codeOf(account), account }
}

function connectedBy(accounts: Accounts, platform: Account, id: string): Account | undefined {
  const account = accounts.get(id)
  return account?.platform === platform.id ? account : undefined
}

/**
 * Exchanges an authorization code or a refresh token for the connected account's keys
 * (`POST /oauth/token`), refusing with the provider's OAuth errors (`invalid_grant`,
 * `unsupported_grant_type`, `invalid_request`).
 *
 * @example
 * exchange(accounts, platform, 'test', { grant_type: 'authorization_code', code: 'ac_…' }).stripe_user_id // 'acct_…'
 */
export function exchange(accounts: Accounts, platform: Account, mode: Mode, params: Record<string, unknown>): OAuthToken {
  const grant = params.grant_type
  let account: Account | undefined
  if (grant === 'authorization_code') {
    const code = params.code
    if (typeof code !== 'string' || code === '') throw new OAuthError('invalid_request', 'No authorization code provided')
    account = code.startsWith('ac_') ? connectedBy(accounts, platform, `acct_${code.slice(3)}`) : undefined
    if (account === undefined) throw new OAuthError('invalid_grant', `Authorization code does not exist: ${code}`)
    if (account.oauthCodeSpent === true) {
      throw new OAuthError(
        'invalid_grant',
        'This authorization code has already been used. All tokens issued with this code have been revoked.',
      )
    }
    account.oauthCodeSpent = true
  } else if (grant === 'refresh_token') {
    const token = params.refresh_token
    if (typeof token !== 'string' || token === '') throw new OAuthError('invalid_request', 'No refresh token provided')
    account = token.startsWith('rt_') ? connectedBy(accounts, platform, `acct_${token.slice(3)}`) : undefined
    if (account === undefined) throw new OAuthError('invalid_grant', `Invalid refresh token: ${token}`)
  } else {
    throw new OAuthError('unsupported_grant_type', `Unsupported grant type: ${String(grant ?? '')}`)
  }
  return {
    access_token: account.keys.secret[mode],
    livemode: mode === 'live',
    refresh_token: refreshOf(account),
    token_type: 'bearer',
    stripe_publishable_key: account.keys.publishable[mode],
    stripe_user_id: account.id,
    scope: 'read_write',
  }
}

/**
 * Ends a platform's connection to an account (`POST /oauth/deauthorize`): emits
 * `account.application.deauthorized` on the account, then revokes the connection: its keys (the
 * access token) stop authenticating, and the platform acting for it is refused with the
 * provider's `account_invalid` saying application access may have been revoked.
 *
 * @example
 * deauthorize(accounts, events, platform, 'test', { client_id: 'ca_…', stripe_user_id: 'acct_…' }, origin)
 */
export function deauthorize(
  accounts: Accounts,
  events: EventStore,
  platform: Account,
  mode: Mode,
  params: Record<string, unknown>,
  origin: Origin,
): { stripe_user_id: string } {
  const clientId = clientIdOf(platform)
  if (params.client_id !== clientId) {
    throw new OAuthError('invalid_client', `No such application: '${String(params.client_id ?? '')}'`)
  }
  const id = String(params.stripe_user_id ?? '')
  const account = connectedBy(accounts, platform, id)
  if (account === undefined)
    throw new OAuthError(
      'invalid_client',
      `This application is not connected to stripe account ${id}, or that account does not exist.`,
    )
  const application = { id: clientId, object: 'application', name: null }
  emitSnapshot(events, 'account.application.deauthorized', { account: id, mode }, application, origin)
  accounts.revoke(id)
  return { stripe_user_id: id }
}
