import type { Route } from '../route.js'
import { accountRoutes } from './account-routes.js'
import { balanceRoutes } from './balance-routes.js'
import { customerRoutes } from './customer-routes.js'
import { eventDestinationRoutes } from './event-destination-routes.js'
import { eventRoutes } from './event-routes.js'
import { meterEventRoutes } from './meter-event-routes.js'
import { meterRoutes } from './meter-routes.js'
import { offSessionPaymentRoutes } from './off-session-payment-routes.js'
import { paymentIntentRoutes } from './payment-intent-routes.js'
import { productRoutes } from './product-routes.js'
import { sessionRoutes } from './session-routes.js'
import { v2EventRoutes } from './v2-event-routes.js'

/** Every operation the simulator serves. Each area adds its own table here. */
export const routes: readonly Route[] = [
  ...accountRoutes,
  ...customerRoutes,
  ...paymentIntentRoutes,
  ...balanceRoutes,
  ...productRoutes,
  ...eventRoutes,
  ...offSessionPaymentRoutes,
  ...sessionRoutes,
  ...meterRoutes,
  ...meterEventRoutes,
  ...eventDestinationRoutes,
  ...v2EventRoutes,
]
