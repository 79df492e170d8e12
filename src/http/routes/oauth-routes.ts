import { authorize, clientIdOf, deauthorize, exchange, OAuthError } from '#domain/connect/oauth-grants.js'
import type { RequestContext, Route } from '../route.js'
import { originOf } from './resource-helpers.js'

type Body = Record<string, unknown>

/** Runs an OAuth step, answering its refusals as the connect host does: 400 `{ error, error_description }`. */
function oauthAnswer(ctx: RequestContext, step: () => unknown): unknown {
  try {
    return step()
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error
    ctx.status(400)
    return { error: error.error, error_description: error.message }
  }
}

/**
 * `GET /oauth/authorize` on the connect host: the page a platform sends a user to. The simulated
 * user accepts at once: a new Standard account is connected to the platform named by
 * `client_id`, and the answer carries its authorization code and the redirect the browser would
 * follow (`redirect_uri?code=…&scope=…&state=…`).
 */
const authorizeRoute: Route<unknown, Body> = {
  method: 'GET',
  path: '/oauth/authorize',
  operation: 'oauth.authorize',
  auth: 'none',
  mutates: true,
  handle(ctx) {
    return oauthAnswer(ctx, () => {
      const platform = ctx.service.accounts.platform
      if (ctx.query.client_id !== clientIdOf(platform)) {
        throw new OAuthError('invalid_client', `No such application: '${String(ctx.query.client_id ?? '')}'`)
      }
      if (ctx.query.response_type !== undefined && ctx.query.response_type !== 'code') {
        throw new OAuthError('unsupported_response_type', `Unsupported response type: ${String(ctx.query.response_type)}`)
      }
      const { code, account } = authorize(ctx.service.accounts, platform, 'test')
      const scope = typeof ctx.query.scope === 'string' ? ctx.query.scope : 'read_only'
      const state = typeof ctx.query.state === 'string' ? ctx.query.state : undefined
      const search = new URLSearchParams({ code, scope, ...(state === undefined ? {} : { state }) })
      const base = typeof ctx.query.redirect_uri === 'string' ? ctx.query.redirect_uri : undefined
      return {
        code,
        scope,
        state: state ?? null,
        stripe_user_id: account.id,
        redirect: base === undefined ? null : `${base}${base.includes('?') ? '&' : '?'}${search}`,
      }
    })
  },
}

/** `POST /oauth/token` on the connect host (`stripe.oauth.token`): a code or refresh token for the account's keys. */
const tokenRoute: Route<Body> = {
  method: 'POST',
  path: '/oauth/token',
  operation: 'oauth.token',
  mutates: true,
  handle(ctx) {
    const { authenticated, mode } = ctx.principal
    return oauthAnswer(ctx, () => exchange(ctx.service.accounts, authenticated, mode, ctx.body))
  },
}

/** `POST /oauth/deauthorize` on the connect host (`stripe.oauth.deauthorize`): the platform's connection ends. */
const deauthorizeRoute: Route<Body> = {
  method: 'POST',
  path: '/oauth/deauthorize',
  operation: 'oauth.deauthorize',
  mutates: true,
  handle(ctx) {
    const { authenticated, mode } = ctx.principal
    return oauthAnswer(ctx, () =>
      deauthorize(ctx.service.accounts, ctx.service.events, authenticated, mode, ctx.body, originOf(ctx)),
    )
  },
}

/**
 * The connect host's OAuth endpoints (`connect.<domain>`): how Standard accounts are connected by
 * platforms that predate account links. Not in the official client's catalogue of API operations
 * (its `oauth` namespace is separate), so served beside it.
 *
 * @example
 * await stripe.oauth.token({ grant_type: 'authorization_code', code })
 */
export const oauthRoutes: readonly Route[] = [authorizeRoute, tokenRoute, deauthorizeRoute]
