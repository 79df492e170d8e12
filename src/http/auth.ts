import type { Account } from '#domain/connect/account.js'
import type { Service } from '#domain/service.js'
import { type ServiceError, tableError } from '#domain/service-error.js'
import type { HeaderReader } from './incoming.js'
import type { HeaderNames } from './prefixed-headers.js'
import { publishableAllowed } from './publishable.js'
import type { Principal, Route } from './route.js'
import { scopedHeader } from './scoped-header.js'

function noAccess(service: Service, key: string, account: string): ServiceError {
  // The provider's added sentence when the platform's OAuth connection to the account has ended.
  const revoked = service.accounts.revoked(account) ? ' Application access may have been revoked.' : ''
  return tableError('account_invalid', { key: redact(key), account, revoked })
}

function redact(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key
}

const WHITESPACE = /\s/

/** Reads the credential of `Authorization`: Bearer on both namespaces, HTTP Basic (key, empty password) on `/v1`. */
function credential(header: string | null, style: 'v1' | 'v2'): string {
  // What clients send: `Bearer <key>` with nothing else, read without splitting.
  if (header?.startsWith('Bearer ') === true) {
    const value = header.slice(7)
    if (value !== '' && !WHITESPACE.test(value)) return value
  }
  if (header === null || header.trim() === '') {
    throw tableError('api_key_missing', { basic: style === 'v1' ? ' or as the HTTP Basic user name' : '' })
  }
  const [scheme, value = ''] = header.trim().split(/\s+/, 2)
  const lower = (scheme ?? '').toLowerCase()
  if (lower === 'bearer' && value !== '') return value
  if (lower === 'basic' && style === 'v1') {
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    const user = decoded.split(':')[0] ?? ''
    if (user !== '') return user
  }
  throw tableError('authorization_header_invalid', {
    expected:
      style === 'v2'
        ? '/v2 endpoints take Authorization: Bearer <key>'
        : 'use Bearer <key> or HTTP Basic with the key as user name and an empty password',
  })
}

/**
 * Authenticates a request and resolves who it acts for, per the spec's table: secret keys decide
 * the mode, `Service-Account` (or an account id in the path) acts for a connected account the
 * platform owns, `Service-Context` acts for an account of the same organisation, and the meter event
 * stream takes only a session token.
 *
 * @example
 * const principal = authenticate(service, request.headers, route, params, names, 'v1')
 */
export function authenticate(
  service: Service,
  headers: HeaderReader,
  route: Route,
  params: Record<string, string>,
  names: HeaderNames,
  style: 'v1' | 'v2',
): Principal {
  if (route.auth === 'none') {
    const platform = service.accounts.platform
    return { authenticated: platform, account: platform, mode: 'test', onBehalf: false }
  }
  const key = credential(headers.get('authorization'), style)
  if (route.auth === 'session') {
    const session = service.sessions.authenticate(key)
    const account = service.accounts.get(session.account) as Account
    return { authenticated: account, account, mode: session.mode, onBehalf: false, session: session.id }
  }
  if (service.sessions.isToken(key)) {
    throw tableError('session_token_off_stream')
  }
  const info = service.accounts.byKey(key)
  if (info === undefined) throw tableError('api_key_invalid', { key: redact(key) })
  // The browser library's intent reads and confirmations take a publishable key with the intent's
  // client secret, which the handler checks once the parameters are decoded.
  if (info.kind === 'publishable' && !publishableAllowed(route.operation)) {
    throw tableError('secret_key_required')
  }
  const authenticated = info.account
  const mode = info.mode
  const accountHeader = scopedHeader(headers, names, 'account')?.value
  const contextHeader = scopedHeader(headers, names, 'context')?.value
  // The account's own path and the paths below it (`/v1/accounts/:accountId/capabilities/:id`).
  const pathAccount = route.path.startsWith('/v1/accounts/:id')
    ? params.id
    : route.path.startsWith('/v1/accounts/:accountId/')
      ? params.accountId
      : undefined
  let account = authenticated
  const wanted = accountHeader ?? pathAccount
  if (wanted !== undefined && wanted !== authenticated.id) {
    const target = service.accounts.get(wanted)
    if (target === undefined || !service.accounts.controls(authenticated, target) || !target.modes.has(mode)) {
      throw noAccess(service, key, wanted)
    }
    account = target
  }
  if (contextHeader !== undefined && contextHeader !== account.id) {
    // A context names the account an event came from: a connected account of the caller, an
    // organisation member, or a member's connected account as `acct_member/acct_connected`.
    const ids = contextHeader.split('/')
    const member = service.accounts.get(ids[0] ?? '')
    const leaf = service.accounts.get(ids[ids.length - 1] ?? '')
    const ok =
      member !== undefined &&
      leaf !== undefined &&
      (member.id === authenticated.id ||
        service.accounts.controls(authenticated, member) ||
        service.accounts.sameOrganisation(authenticated, member)) &&
      (leaf === member || service.accounts.controls(member, leaf)) &&
      leaf.modes.has(mode)
    if (!ok || (accountHeader !== undefined && leaf?.id !== account.id)) throw noAccess(service, key, contextHeader)
    account = leaf
  }
  const onBehalf = account.id !== authenticated.id
  return info.kind === 'publishable'
    ? { authenticated, account, mode, onBehalf, publishable: true }
    : { authenticated, account, mode, onBehalf }
}
