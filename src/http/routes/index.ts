import type { Route } from '../route.js'
import { accountRoutes } from './account-routes.js'
import { sessionRoutes } from './session-routes.js'

/** Every operation the simulator serves. Each area adds its own table here. */
export const routes: readonly Route[] = [...accountRoutes, ...sessionRoutes]
