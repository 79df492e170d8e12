import type { Route } from '../route.js'
import { accountRoutes } from './account-routes.js'
import { eventDestinationRoutes } from './event-destination-routes.js'
import { sessionRoutes } from './session-routes.js'
import { v2EventRoutes } from './v2-event-routes.js'

/** Every operation the simulator serves. Each area adds its own table here. */
export const routes: readonly Route[] = [...accountRoutes, ...sessionRoutes, ...eventDestinationRoutes, ...v2EventRoutes]
