import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'

/** The objects an ephemeral key can be for, by param, and the resource each names. */
const FOR: Readonly<Record<string, string | undefined>> = {
  customer: 'customer',
  issuing_card: undefined,
  nonce: undefined,
  verification_session: undefined,
}

/** Seconds an ephemeral key lasts. */
const LIFETIME_SECONDS = 60 * 60

/**
 * Ephemeral keys: a short-lived secret a mobile SDK uses for one customer (or issuing card,
 * nonce, verification session). Created only with an explicit API version (the provider's mobile
 * SDKs send theirs), kept so `del` can expire it early; `del` answers the key, expired now.
 *
 * @example
 * engine.run('ephemeralKeys.create', { scope, origin, path: {}, params: { customer: 'cus_1' }, versionHeader: '2026-10-28.endive' })
 * // { id: 'ephkey_…', object: 'ephemeral_key', associated_objects: [{ id: 'cus_1', type: 'customer' }], secret: 'ek_test_…', ... }
 */
export const ephemeralKeys: ResourceDeclaration<ResourcePorts> = {
  type: 'EphemeralKey',
  object: 'ephemeral_key',
  idPrefix: 'ephkey',
  defaults: ({ id, created, livemode }) => ({
    expires: created + LIFETIME_SECONDS,
    secret: `ek_${livemode ? 'live' : 'test'}_${id.slice(7)}`,
  }),
  behaviours: {
    'ephemeralKeys.create'(call, next, { engine }) {
      if (call.versionHeader === undefined) throw tableError('ephemeral_key_version_missing')
      const given = Object.keys(FOR).filter((k) => typeof call.params[k] === 'string')
      if (given.length !== 1) throw tableError('ephemeral_key_target', {}, { param: 'customer' })
      const kind = given[0] as string
      const id = call.params[kind] as string
      const resource = FOR[kind]
      if (resource !== undefined) engine.resource(resource).requireParam(call.scope, id, kind)
      return next({}, { associated_objects: [{ id, type: kind }] })
    },
    'ephemeralKeys.del'(call, _next, { engine }) {
      const r = engine.resource('ephemeral_key')
      const key = r.require(call.scope, call.path.id ?? '')
      r.delete(call.scope, key.id, call.origin)
      return { ...key, expires: engine.now() }
    },
  },
}
