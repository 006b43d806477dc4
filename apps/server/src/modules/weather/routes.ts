import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { WeatherService } from './service.js';

/** The weather overlay of /map2d: the weather now over a grid, and one point's forecast. */
export function weatherRoutes(app: FastifyInstance, hooks: CallHooks, weather: WeatherService): void {
  registerCall(app, hooks, calls.GetWeatherGrid, async ({ body }) => weather.grid(body.points));
  registerCall(app, hooks, calls.GetWeatherPoint, async ({ body }) => weather.point(body.lat, body.lng));
}
