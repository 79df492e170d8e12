import type { AdminRoute } from './admin-route.js'
import { checkoutRoutes } from './routes/checkout-routes.js'
import { clockRoutes } from './routes/clock-routes.js'
import { customerRoutes } from './routes/customer-routes.js'
import { destinationRoutes } from './routes/destination-routes.js'
import { eventRoutes } from './routes/event-routes.js'
import { faultRoutes } from './routes/fault-routes.js'
import { fixtureRoutes } from './routes/fixture-routes.js'
import { lifecycleRoutes } from './routes/lifecycle-routes.js'
import { objectRoutes } from './routes/object-routes.js'
import { scheduleRoutes } from './routes/schedule-routes.js'
import { setupRoutes } from './routes/setup-routes.js'
import { usageRoutes } from './routes/usage-routes.js'
import { windowRoutes } from './routes/window-routes.js'

/**
 * Every admin route, each declared once (method, path, input schema, summary, answers, handler):
 * the dispatcher serves these and `docs/admin-api.openapi.yaml` is generated from them.
 *
 * @example
 * adminRoutes.find((r) => r.path === '/settle')?.method // 'POST'
 */
export const adminRoutes: readonly AdminRoute[] = [
  ...clockRoutes,
  ...setupRoutes,
  ...usageRoutes,
  ...eventRoutes,
  ...destinationRoutes,
  ...objectRoutes,
  ...scheduleRoutes,
  ...faultRoutes,
  ...lifecycleRoutes,
  ...fixtureRoutes,
  ...checkoutRoutes,
  ...customerRoutes,
  ...windowRoutes,
]
