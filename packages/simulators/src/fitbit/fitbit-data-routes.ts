/*
 * The Fitbit data endpoints (providers.md §1.7): activity daily summary, time
 * series, intraday and the activity log list, heart (resting, intraday at
 * 1sec/1min/5min/15min), sleep v1.2 by date range and list, body weight and
 * fat logs and time series, SpO2, cardio score, HRV, breathing rate and food
 * logs and series, with the real paths, string values in time series, the
 * user's local times without offset (IANA zone with DST) and the maximum
 * ranges (400 beyond them). "today" is the user's local date. One module
 * per resource family in data-routes/.
 */
import type { FastifyInstance } from 'fastify';
import type { SimClock } from '../clock.js';
import { registerActivityRoutes } from './data-routes/activity-routes.js';
import { registerBodyRoutes } from './data-routes/body-routes.js';
import { registerFoodRoutes } from './data-routes/food-routes.js';
import { registerHealthMetricRoutes } from './data-routes/health-metric-routes.js';
import { fitbitRouteKit, type Guard } from './data-routes/route-kit.js';
import { registerSleepRoutes } from './data-routes/sleep-routes.js';

export function registerFitbitDataRoutes(app: FastifyInstance, clock: SimClock, guard: Guard) {
  const kit = fitbitRouteKit(clock, guard);
  registerActivityRoutes(app, kit);
  registerSleepRoutes(app, kit);
  registerBodyRoutes(app, kit);
  registerHealthMetricRoutes(app, kit);
  registerFoodRoutes(app, kit);
}
