/// <reference lib="webworker" />
import land10m from 'world-atlas/land-10m.json?raw';
import { buildCoastIndex, landIn, landPolygons, type Bbox, type CoastIndex, type LandTopology } from './coastIndex';

/**
 * Natural Earth's 1:10m land, kept in a worker (its 3 MB are parsed and indexed here, never on the page's
 * thread): each request names a view's box and is answered with the land and coast inside it, clipped.
 */
let index: CoastIndex | null = null;

self.onmessage = (event: MessageEvent<{ id: number; box: Bbox; maxPoints: number }>) => {
  const { id, box, maxPoints } = event.data;
  index ??= buildCoastIndex(landPolygons(JSON.parse(land10m) as LandTopology));
  self.postMessage({ id, answer: landIn(index, box, maxPoints) });
};
