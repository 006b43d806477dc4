import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Replaying tracks in sync: one clock over [start, end] of the loaded tracks, which every map view reads
 * (each device shows where it was at the clock's time). Free of any map library, so the 2D map and the
 * globe share it with ReplayControl.
 */

/** At 1× a whole replay lasts this long, whatever the span of the tracks. */
export const REPLAY_BASE_DURATION_MS = 60_000;
export const REPLAY_SPEEDS = [1, 2, 4, 8, 16] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];
/** Slider positions over the span: the keyboard moves by one. */
export const REPLAY_STEPS = 1000;

/** The clock after `elapsedMs` of real time at `speed`; it stops at the end. */
export function advance(time: number, elapsedMs: number, extent: readonly [number, number], speed: number): number {
  const rate = ((extent[1] - extent[0]) / REPLAY_BASE_DURATION_MS) * speed;
  return Math.min(extent[1], Math.max(extent[0], time + elapsedMs * rate));
}

export function timeToStep(time: number, extent: readonly [number, number]): number {
  const span = extent[1] - extent[0];
  return span > 0 ? Math.round(((time - extent[0]) / span) * REPLAY_STEPS) : REPLAY_STEPS;
}

export function stepToTime(step: number, extent: readonly [number, number]): number {
  return extent[0] + ((extent[1] - extent[0]) * step) / REPLAY_STEPS;
}

export interface ReplayState {
  extent: [number, number] | null;
  /** The clock (epoch ms); null when not replaying (whole tracks shown). */
  time: number | null;
  playing: boolean;
  speed: ReplaySpeed;
  seek: (time: number) => void;
  play: () => void;
  pause: () => void;
  /** Back to whole tracks. */
  stop: () => void;
  setSpeed: (speed: ReplaySpeed) => void;
}

function sameExtent(a: readonly [number, number] | null, b: readonly [number, number] | null): boolean {
  return a === b || (a !== null && b !== null && a[0] === b[0] && a[1] === b[1]);
}

export function useReplay(extent: [number, number] | null): ReplayState {
  const [time, setTime] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<ReplaySpeed>(1);
  // New tracks (another extent) end the replay.
  const [shownExtent, setShownExtent] = useState(extent);
  if (!sameExtent(shownExtent, extent)) {
    setShownExtent(extent);
    setTime(null);
    setPlaying(false);
  }

  const clock = useRef<number | null>(time);
  useEffect(() => {
    clock.current = time;
  }, [time]);

  useEffect(() => {
    if (!playing || !extent) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number): void => {
      const next = advance(clock.current ?? extent[0], now - last, extent, speed);
      last = now;
      clock.current = next;
      setTime(next);
      if (next >= extent[1]) setPlaying(false);
      else frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, extent, speed]);

  const seek = useCallback(
    (t: number) => {
      if (!extent) return;
      const next = Math.min(extent[1], Math.max(extent[0], t));
      clock.current = next;
      setTime(next);
    },
    [extent],
  );
  const play = useCallback(() => {
    if (!extent) return;
    // Playing from the end starts over.
    if (clock.current === null || clock.current >= extent[1]) {
      clock.current = extent[0];
      setTime(extent[0]);
    }
    setPlaying(true);
  }, [extent]);
  const pause = useCallback(() => setPlaying(false), []);
  const stop = useCallback(() => {
    setPlaying(false);
    clock.current = null;
    setTime(null);
  }, []);

  return { extent, time: extent ? time : null, playing: playing && extent !== null, speed, seek, play, pause, stop, setSpeed };
}
