import type { Route } from '../route.js'
import { catalogueRoutes } from './engine-routes.js'
import { eventResendRoute } from './event-resend-route.js'
import { meterAdjustmentRoutes } from './meter-adjustment-routes.js'
import { meterEventRoutes } from './meter-event-routes.js'
import { meterRoutes } from './meter-routes.js'
import { offSessionPaymentRoutes } from './off-session-payment-routes.js'
import { rollSecretRoute } from './roll-secret-route.js'
import { sessionRoutes } from './session-routes.js'

/** The hand-written routes: operations whose behaviour lives in a route (meters, sessions, off-session payments). */
export const behaviourRoutes: readonly Route[] = [
  eventResendRoute,
  ...offSessionPaymentRoutes,
  ...sessionRoutes,
  ...meterRoutes,
  ...meterEventRoutes,
  ...meterAdjustmentRoutes,
  rollSecretRoute,
]

/**
 * Every operation the simulator answers: the hand-written routes, then every other catalogue
 * operation through the resource engine or a 501 naming it.
 */
export const routes: readonly Route[] = catalogueRoutes(behaviourRoutes)
