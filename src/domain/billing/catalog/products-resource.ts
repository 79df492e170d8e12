import { checkLength, checkNotEmpty } from '../../engine/checks.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import { tableError } from '../../service-error.js'

type Params = Readonly<Record<string, unknown>>

/** The provider's rules on product params beyond their types: a name, at most 8 image URLs, short labels. */
function check(params: Params, creating: boolean): void {
  if (creating || 'name' in params) checkNotEmpty(params.name, 'name')
  const images = params.images
  if (Array.isArray(images)) {
    if (images.length > 8)
      throw tableError('parameter_invalid', { param: 'images', detail: 'at most 8 images' }, { param: 'images' })
    images.forEach((url, i) => {
      if (typeof url !== 'string' || !URL.canParse(url)) {
        throw tableError('parameter_invalid', { param: 'URL', detail: String(url) }, { param: `images[${i}]` })
      }
    })
  }
  checkLength(params.statement_descriptor, 'statement_descriptor', 22)
  checkLength(params.unit_label, 'unit_label', 12)
  if (typeof params.id === 'string' && !/^[A-Za-z0-9_-]{1,200}$/.test(params.id)) {
    throw tableError('parameter_invalid', { param: 'id', detail: params.id }, { param: 'id' })
  }
}

/** Products: a caller may choose the id; `updated` follows every change; `type` is `service`; one with prices stays. */
export const products: ResourceDeclaration = {
  type: 'Product',
  object: 'product',
  idPrefix: 'prod',
  idLength: 14,
  callerId: true,
  touch: ['updated'],
  defaults: () => ({ active: true, type: 'service' }),
  behaviours: {
    'products.create'(call, next) {
      check(call.params, true)
      return next()
    },
    'products.update'(call, next) {
      check(call.params, false)
      return next()
    },
    'products.del'(call, next, { engine }) {
      // The provider keeps a product its prices (and the subscriptions billing them) point at.
      const id = engine.resource('product').require(call.scope, call.path.id ?? '').id
      if (
        engine
          .resource('price')
          .list(call.scope)
          .some((p) => p.product === id)
      ) {
        throw tableError('product_has_prices')
      }
      return next()
    },
  },
}
