import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { advance, REPLAY_BASE_DURATION_MS, REPLAY_STEPS, stepToTime, timeToStep, useReplay } from './replay';

const EXTENT: [number, number] = [1_000_000, 1_000_000 + 6 * 3_600_000];

describe('replay clock', () => {
  it('runs the whole span in the base duration at 1×, faster at higher speeds, and stops at the end', () => {
    expect(advance(EXTENT[0], REPLAY_BASE_DURATION_MS, EXTENT, 1)).toBe(EXTENT[1]);
    expect(advance(EXTENT[0], REPLAY_BASE_DURATION_MS / 4, EXTENT, 2)).toBe(EXTENT[0] + (EXTENT[1] - EXTENT[0]) / 2);
    expect(advance(EXTENT[1] - 1, 10_000, EXTENT, 16)).toBe(EXTENT[1]);
  });

  it('maps slider steps to times and back', () => {
    expect(timeToStep(EXTENT[0], EXTENT)).toBe(0);
    expect(timeToStep(EXTENT[1], EXTENT)).toBe(REPLAY_STEPS);
    expect(stepToTime(REPLAY_STEPS / 2, EXTENT)).toBe(EXTENT[0] + 3 * 3_600_000);
    expect(timeToStep(stepToTime(337, EXTENT), EXTENT)).toBe(337);
  });

  it('seeks within the span, stops back to whole tracks, and ends with other tracks', () => {
    const { result, rerender } = renderHook(({ extent }) => useReplay(extent), { initialProps: { extent: EXTENT as [number, number] | null } });
    expect(result.current.time).toBeNull();
    act(() => result.current.seek(EXTENT[0] - 5));
    expect(result.current.time).toBe(EXTENT[0]);
    act(() => result.current.seek(EXTENT[0] + 1000));
    expect(result.current.time).toBe(EXTENT[0] + 1000);
    // An equal extent (a new array) keeps the clock; another one resets it.
    rerender({ extent: [EXTENT[0], EXTENT[1]] });
    expect(result.current.time).toBe(EXTENT[0] + 1000);
    rerender({ extent: [EXTENT[0], EXTENT[1] + 1] });
    expect(result.current.time).toBeNull();
    act(() => result.current.seek(EXTENT[0] + 2000));
    act(() => result.current.stop());
    expect(result.current.time).toBeNull();
    rerender({ extent: null });
    expect(result.current.time).toBeNull();
  });

  it('starts playing from the beginning', () => {
    const { result } = renderHook(() => useReplay(EXTENT));
    act(() => result.current.play());
    expect(result.current.playing).toBe(true);
    expect(result.current.time).toBe(EXTENT[0]);
    act(() => result.current.pause());
    expect(result.current.playing).toBe(false);
  });
});
