import type { FastifyInstance } from 'fastify';
import { calls, type TileLayers } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';

/** The map's configuration as this server has it: the global tile layers' URL templates (§2.5). */
export function mapRoutes(app: FastifyInstance, hooks: CallHooks, tileLayers: TileLayers): void {
  registerCall(app, hooks, calls.GetTileLayers, async () => tileLayers);
}
