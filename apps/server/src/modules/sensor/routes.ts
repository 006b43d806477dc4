import type { FastifyInstance } from 'fastify';
import { calls, type SensorKindName } from '@wildtrack/contract';
import { type CallContext, type CallHooks, registerCall } from '../../http/calls.js';
import type { PageBody, RangeBody, SensorService } from './service.js';

export function sensorRoutes(app: FastifyInstance, hooks: CallHooks, sensors: SensorService): void {
  const count = (kind: SensorKindName) => async ({ body, caller }: CallContext<RangeBody, 'session'>) => ({ Count: await sensors.count(caller, kind, body) });
  const page = <K extends SensorKindName>(kind: K) => async ({ body, caller }: CallContext<PageBody, 'session'>) => sensors.page(caller, kind, body);
  registerCall(app, hooks, calls.GetTemperatureCount, count('temperature'));
  registerCall(app, hooks, calls.GetTemperatureList, page('temperature'));
  registerCall(app, hooks, calls.GetPressureCount, count('pressure'));
  registerCall(app, hooks, calls.GetPressureList, page('pressure'));
  registerCall(app, hooks, calls.GetWaterDepthCount, count('waterDepth'));
  registerCall(app, hooks, calls.GetWaterDepthList, page('waterDepth'));
  registerCall(app, hooks, calls.GetRedInfraredLightCount, count('redInfrared'));
  registerCall(app, hooks, calls.GetRedInfraredLightList, page('redInfrared'));
  registerCall(app, hooks, calls.GetLightIntensityCount, count('light'));
  registerCall(app, hooks, calls.GetLightIntensityList, page('light'));
  registerCall(app, hooks, calls.GetHumidityCount, count('humidity'));
  registerCall(app, hooks, calls.GetHumidityList, page('humidity'));
  registerCall(app, hooks, calls.GetMagnetismCount, count('magnetism'));
  registerCall(app, hooks, calls.GetMagnetismList, page('magnetism'));
  registerCall(app, hooks, calls.GetSensorSeries, async ({ body, caller }) => sensors.series(caller, body));
  registerCall(app, hooks, calls.GetAccelerationCountV2, async ({ body, caller }) => ({ Count: await sensors.burstCount(caller, body) }));
  registerCall(app, hooks, calls.GetAccelerationListV2, async ({ body, caller }) => sensors.burstPage(caller, body));
}
