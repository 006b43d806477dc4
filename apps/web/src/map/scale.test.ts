import { describe, expect, it } from 'vitest';
import { niceDistance } from './scale';

describe('scale bar lengths', () => {
  it('takes the longest round distance that fits', () => {
    expect(niceDistance(137)).toEqual({ metres: 100, label: '100 m' });
    expect(niceDistance(260)).toEqual({ metres: 200, label: '200 m' });
    expect(niceDistance(3400)).toEqual({ metres: 3000, label: '3 km' });
    expect(niceDistance(999_999)).toEqual({ metres: 500_000, label: '500 km' });
    expect(niceDistance(1000)).toEqual({ metres: 1000, label: '1 km' });
  });

  it('has nothing to show for no distance', () => {
    expect(niceDistance(0)).toBeNull();
    expect(niceDistance(Number.NaN)).toBeNull();
  });
});
