import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import type { z } from 'zod';
import { type CallHooks, JsonData, registerCall, registerDownload } from '../../http/calls.js';
import type { AccelerationService } from './acceleration.js';

export function accelerationRoutes(app: FastifyInstance, hooks: CallHooks, acceleration: AccelerationService): void {
  registerDownload(app, hooks, calls.DownLoadAccelerationDataV2, async ({ body, caller }) => acceleration.download(caller, body));
  registerCall(app, hooks, calls.GetAccelerationBinaryV2, async ({ body, caller, request }) => {
    // The series is already dense (varint differences, acceleration-codec.ts): compressing megabytes of it
    // again costs more time than it saves bytes (bench/sensors acceleration), so @fastify/compress is told
    // to leave this answer as it is.
    request.headers['x-no-compression'] = '1';
    const { bytes, ...counts } = await acceleration.binary(caller, body);
    // Megabytes of base64 written into the answer as they are (JsonData), not scanned again by JSON.stringify.
    return JsonData.withBase64(counts, 'Data', bytes) as unknown as z.output<typeof calls.GetAccelerationBinaryV2.data>;
  });
}
