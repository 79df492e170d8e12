import type { Account } from '#domain/accounts/account.js'
import type { Service } from '#domain/service.js'
import { ServiceError } from '#domain/service-error.js'
import type { HeaderNames } from './header-names.js'
import type { HeaderReader } from './incoming.js'
import type { Principal, Route } from './route.js'

function unauthorized(message: string, code?: string): ServiceError {
  return new ServiceError({ status: 401, type: 'invalid_request_error', message, ...(code ? { code } : {}) })
}

function noAccess(key: string, account: string): ServiceError {
  return new ServiceError({
    status: 403,
    type: 'invalid_request_error',
    code: 'account_invalid',
    message: `The provided key '${redact(key)}' does not have access to account '${account}' (or that account does not exist).`,
  })
}

function redact(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : key
}

/** Reads the credential of `Authorization`: Bearer on both namespaces, HTTP Basic (key, empty password) on `/v1`. */
function credential(header: string | null, style: 'v1' | 'v2'): string {
  if (header === null || header.trim() === '') {
    throw unauthorized(
      'You did not provide an API key. Provide it in the Authorization header as Bearer <key>' +
        (style === 'v1' ? ' or as the HTTP Basic user name.' : '.'),
      'api_key_missing',
    )
  }
  const [scheme, value = ''] = header.trim().split(/\s+/, 2)
  const lower = (scheme ?? '').toLowerCase()
  if (lower === 'bearer' && value !== '') return value
  if (lower === 'basic' && style === 'v1') {
    const decoded = Buffer.from(value, 'base64').toString('utf8')
    const user = decoded.split(':')[0] ?? ''
    if (user !== '') return user
  }
  throw unauthorized(
    style === 'v2'
      ? 'Invalid Authorization header: /v2 endpoints take Authorization: Bearer <key>.'
      : 'Invalid Authorization header: use Bearer <key> or HTTP Basic with the key as user name and an empty password.',
    'authorization_header_invalid',
  )
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
  const key = credential(headers.get('authorization'), style)
  if (route.auth === 'session') {
    const session = service.sessions.authenticate(key)
    const account = service.accounts.get(session.account) as Account
    return { authenticated: account, account, mode: session.mode, onBehalf: false, session: session.id }
  }
  if (service.sessions.isToken(key)) {
    throw unauthorized(
      'A meter event session token authenticates only the meter event stream; use a secret key here.',
      'secret_key_required',
    )
  }
  const info = service.accounts.byKey(key)
  if (info === undefined) throw unauthorized(`Invalid API Key provided: ${redact(key)}`, 'api_key_invalid')
  if (info.kind === 'publishable') {
    throw unauthorized(
      'This API call cannot be made with a publishable API key. Please use a secret API key.',
      'secret_key_required',
    )
  }
  const authenticated = info.account
  const mode = info.mode
  const accountHeader = headers.get(names.account) ?? undefined
  const contextHeader = headers.get(names.context) ?? undefined
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
      throw noAccess(key, wanted)
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
    if (!ok || (accountHeader !== undefined && leaf?.id !== account.id)) throw noAccess(key, contextHeader)
    account = leaf
  }
  return { authenticated, account, mode, onBehalf: account.id !== authenticated.id }
}
