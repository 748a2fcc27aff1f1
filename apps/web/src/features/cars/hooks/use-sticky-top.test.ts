import { describe, expect, it } from 'vitest';
import { stickyTop } from './use-sticky-top';

describe('stickyTop', () => {
  it('sticks under the header while the panel fits the window', () => {
    expect(stickyTop(600, 800, 80, 16)).toBe(80);
  });
  it('goes negative by the overflow when the panel is taller, so its end sticks 16 px above the bottom', () => {
    expect(stickyTop(1400, 800, 80, 16)).toBe(800 - 1400 - 16);
  });
});
