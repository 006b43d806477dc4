import { useMemo } from 'react';
import { useReplay, type ReplayState } from '../lib/replay';
import { useLastFixes, useTracks, type DecodedTrack } from '../lib/tracks';
import { deviceColor, timeExtent, type Rgb } from './deck/trackData';

/**
 * What /map2d and /map3d both show of the chosen devices over a range: their tracks, their last fixes
 * (for captions and markers), a colour each by its place in the selection (so a device has the same
 * colour on both maps), and one replay clock over all the tracks.
 */
export function useMapTracks(imeis: readonly string[], range: { start: string; end: string }) {
  const tracksQuery = useTracks(imeis.length > 0 ? { imeis, start: range.start, end: range.end } : null);
  const last = useLastFixes(imeis);
  const colors = useMemo(() => new Map<string, Rgb>(imeis.map((imei, i) => [imei, deviceColor(i)])), [imeis]);
  // Tracks of devices taken out of the selection since the request went are not shown.
  const shown: DecodedTrack[] = useMemo(() => tracksQuery.tracks.filter((tr) => imeis.includes(tr.imei)), [tracksQuery.tracks, imeis]);
  const extent = useMemo(() => timeExtent(shown), [shown]);
  const replay: ReplayState = useReplay(extent);
  const captions = useMemo(() => new Map((last.data ?? []).map((f) => [f.IMEI, f.Caption])), [last.data]);
  const loading = tracksQuery.isFetching || last.isFetching;
  return { tracksQuery, last, colors, shown, extent, replay, captions, loading };
}
