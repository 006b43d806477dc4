import type { FastifyInstance } from 'fastify';
import { type CallDef, calls, SENSOR_CALLS, SENSOR_KIND_NAMES } from '@wildtrack/contract';
import type { z } from 'zod';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { PageBody, RecordPage, SensorService } from './service.js';

/**
 * A kind's list call as this loop sees it: the kinds' lists differ only in their sort fields and their
 * records' value fields, which the service makes from the same row of the kinds' table (sensor.test parses
 * every kind's page with its own schema).
 */
type KindListCall = CallDef<z.ZodType<PageBody>, z.ZodType<RecordPage<Record<string, string | number>>>, 'session'>;

export function sensorRoutes(app: FastifyInstance, hooks: CallHooks, sensors: SensorService): void {
  // Each scalar kind's Get<flag>Count and Get<flag>List, in the order of the contract's kinds table (sensor-kinds.ts).
  for (const kind of SENSOR_KIND_NAMES) {
    const { count, list } = SENSOR_CALLS[kind];
    registerCall(app, hooks, count, async ({ body, caller }) => ({ Count: await sensors.count(caller, kind, body) }));
    registerCall(app, hooks, list as unknown as KindListCall, async ({ body, caller }) => sensors.page(caller, kind, body));
  }
  registerCall(app, hooks, calls.GetSensorSeries, async ({ body, caller }) => sensors.series(caller, body));
  registerCall(app, hooks, calls.GetAccelerationCountV2, async ({ body, caller }) => ({ Count: await sensors.burstCount(caller, body) }));
  registerCall(app, hooks, calls.GetAccelerationListV2, async ({ body, caller }) => sensors.burstPage(caller, body));
}
