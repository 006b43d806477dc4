import type { MediaService } from '../modules/media/service.js';
import type { Job } from './runner.js';

const THUMB_BATCH = 20;
const THUMB_PASS_MS = 8_000;

/**
 * Thumbnails made ahead (issue 13 item 4): photos arrive from devices without one, and the first /media
 * grid over them waited for sharp (~1 s for a page of 20). Every 10 seconds (5 s after a start), the images
 * that arrived without a thumbnail are found, the latest first, and made in batches until none is left
 * or the pass has run its time. Each is claimed in the database (MediaService.makeThumbnails, media_thumbs),
 * so two server processes never make the same one and a stopped process's claims are made again later.
 */
export function mediaThumbnails(media: Pick<MediaService, 'makeThumbnails'>): Job {
  return {
    name: 'media thumbnails',
    everyMs: 10_000,
    firstAfterMs: 5_000,
    lease: false,
    start: 'with the app',
    run: async () => {
      // A pass's length: elapsed time (performance.now), not the server's clock, which a test may hold still.
      const until = performance.now() + THUMB_PASS_MS;
      while (performance.now() < until && (await media.makeThumbnails(THUMB_BATCH)).more) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
