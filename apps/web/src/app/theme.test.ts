import { DEFAULT_THEME, type MantineColor, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { changeColors, cssVariablesResolver, theme, variantColorResolver } from './theme';

const full = mergeMantineTheme(DEFAULT_THEME, theme);

/** WCAG 2 relative luminance of "#rrggbb" or "rgba(r, g, b, a)" (opaque). */
function luminance(color: string): number {
  const rgb = color.startsWith('#')
    ? [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16))
    : color
        .match(/\d+(\.\d+)?/g)!
        .slice(0, 3)
        .map(Number);
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrastWithWhite = (color: string) => 1.05 / (luminance(color) + 0.05);

describe('theme contrast (WCAG AA, 4.5:1 for text)', () => {
  // The colours the app's filled buttons use with white text (yellow and orange buttons are light).
  it.each(['teal', 'red', 'gray', 'blue', 'dark'] as MantineColor[])(
    'a filled %s button keeps white text readable when hovered',
    (color) => {
      const colors = variantColorResolver({ color, theme: full, variant: 'filled' });
      expect(contrastWithWhite(colors.hover)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('a filled element without a color prop (the primary colour’s CSS variables) too', () => {
    const light = cssVariablesResolver(full).light;
    expect(contrastWithWhite(light['--mantine-primary-color-filled-hover']!)).toBeGreaterThanOrEqual(4.5);
    for (const color of ['teal', 'red', 'gray', 'blue', 'dark'])
      expect(contrastWithWhite(light[`--mantine-color-${color}-filled-hover`]!)).toBeGreaterThanOrEqual(4.5);
  });

  it('the primary colour is teal, shade 9 (white on it 5.0:1 or more)', () => {
    expect(full.primaryColor).toBe('teal');
    expect(contrastWithWhite(full.colors.teal[9])).toBeGreaterThanOrEqual(4.5);
  });

  it('the text of a change up or down (overview tiles) on white', () => {
    expect(contrastWithWhite(changeColors.up)).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite(changeColors.down)).toBeGreaterThanOrEqual(4.5);
  });
});
