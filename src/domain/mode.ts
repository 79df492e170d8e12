/** Test mode (sandbox, `sk_test_` keys) or live mode (`sk_live_` keys). */
export type Mode = 'test' | 'live'

/** The scope every object lives in: one account, one mode. Nothing is visible across scopes. */
export interface Scope {
  readonly account: string
  readonly mode: Mode
}

/** A stable string key for a scope, for maps. */
export function scopeKey(scope: Scope): string {
  return `${scope.account}|${scope.mode}`
}
