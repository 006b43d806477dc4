import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import type { AccelerationService } from './acceleration.js';

export function accelerationRoutes(app: FastifyInstance, hooks: CallHooks, acceleration: AccelerationService): void {
  registerDownload(app, hooks, calls.DownLoadAccelerationDataV2, async ({ body, caller }) => acceleration.download(caller, body));
  registerCall(app, hooks, calls.GetAccelerationBinaryV2, async ({ body, caller, request }) => {
    // The series is already dense (varint differences, acceleration-codec.ts): compressing megabytes of it
    // again costs more time than it saves bytes (bench/sensors acceleration), so @fastify/compress is told
    // to leave this answer as it is.
    request.headers['x-no-compression'] = '1';
    return acceleration.binary(caller, body);
  });
}
