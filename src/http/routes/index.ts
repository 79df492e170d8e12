import type { Route } from '../route.js'
import { catalogueRoutes } from './engine-routes.js'
import { eventResendRoute } from './event-resend-route.js'
import { oauthRoutes } from './oauth-routes.js'
import { offSessionPaymentRoutes } from './off-session-payment-routes.js'
import { rollSecretRoute } from './roll-secret-route.js'

/**
 * The hand-written routes: the operations the official client does not have (off-session
 * payments, a destination's secret roll, an event's resend, the connect host's OAuth), named in
 * the catalogue's style.
 */
export const behaviourRoutes: readonly Route[] = [eventResendRoute, ...offSessionPaymentRoutes, rollSecretRoute, ...oauthRoutes]

/**
 * Every operation the simulator answers: the hand-written routes, then every other catalogue
 * operation through the resource engine or a 501 naming it.
 */
export const routes: readonly Route[] = catalogueRoutes(behaviourRoutes)
