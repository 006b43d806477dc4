import { expect } from 'vitest';
import { INGEST_BASE, ingestHeaders, type IngestAnswer } from '@wildtrack/contract';
import type { TestApp } from './helper.js';
import { now } from '../lib/clock.js';

/** A fix as a test sends it: [pick time, lon, lat] (null lon/lat: a fix without a position). */
export type TestFix = [number, number | null, number | null];

/**
 * A device's side of ingest as route tests speak it: a signed batch of fixes, or a fence
 * acknowledgement, answered with the device's answer (its instructions and fence rules).
 */
export function deviceCalls(app: () => TestApp, secrets: ReadonlyMap<string, string>) {
  const post = async (imei: string, route: '/batch' | '/fence-ack', payload: unknown) => {
    const secret = secrets.get(imei);
    if (!secret) throw new Error(`no secret for device ${imei}`);
    const body = JSON.stringify(payload);
    const path = `${INGEST_BASE}${route}`;
    const res = await app().app.inject({ method: 'POST', url: path, headers: { ...ingestHeaders({ imei, secret, path, body, now: now() }), 'content-type': 'application/json' }, payload: body });
    return { status: res.statusCode, body: res.json() as IngestAnswer };
  };
  /** A batch of fixes the server stores (200), with the answer. */
  const batch = async (imei: string, fixes: readonly TestFix[]): Promise<IngestAnswer> => {
    const r = await post(imei, '/batch', { fixes: { t: fixes.map((f) => f[0]), lon: fixes.map((f) => f[1]), lat: fixes.map((f) => f[2]) } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const ack = (imei: string, fenceId: number, version: number) => post(imei, '/fence-ack', { fenceId, version });
  return { post, batch, ack };
}
