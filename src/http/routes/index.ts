import type { Route } from '../route.js'
import { accountRoutes } from './account-routes.js'
import { balanceRoutes } from './balance-routes.js'
import { catalogueRoutes } from './engine-routes.js'
import { eventDestinationRoutes } from './event-destination-routes.js'
import { eventRoutes } from './event-routes.js'
import { offSessionPaymentRoutes } from './off-session-payment-routes.js'
import { paymentIntentRoutes } from './payment-intent-routes.js'
import { v2EventRoutes } from './v2-event-routes.js'

/** The hand-written routes: operations whose behaviour lives in a route (payment intents' state machine, destinations, accounts, balance). */
export const behaviourRoutes: readonly Route[] = [
  ...accountRoutes,
  ...paymentIntentRoutes,
  ...balanceRoutes,
  ...eventRoutes,
  ...offSessionPaymentRoutes,
  ...eventDestinationRoutes,
  ...v2EventRoutes,
]

/**
 * Every operation the simulator answers: the hand-written routes, then every other catalogue
 * operation through the resource engine or a 501 naming it.
 */
export const routes: readonly Route[] = catalogueRoutes(behaviourRoutes)
