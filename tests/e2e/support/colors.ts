/**
 * Reading colours the way a visitor sees them: the computed background of an element, walking up to the first
 * ancestor that paints one (a transparent header shows its parent's colour).
 */
import type { Locator } from '@playwright/test';

export type Rgb = { r: number; g: number; b: number };

export async function backgroundOf(locator: Locator): Promise<Rgb> {
  const css = await locator.first().evaluate((el) => {
    for (let node: Element | null = el; node; node = node.parentElement) {
      const bg = getComputedStyle(node).backgroundColor;
      const transparent = bg === 'transparent' || /rgba\(.*,\s*0\)$/.test(bg);
      if (!transparent) return bg;
    }
    return 'rgb(255, 255, 255)'; // nothing paints: the browser's canvas is white
  });
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).map(Number);
  return { r, g, b };
}

/** Relative luminance (WCAG) of an sRGB colour, 0 (black) … 1 (white). */
export function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** 'white' (pure or near-white, neutral), 'light-blue' (light and clearly blue), 'black' (near black), or 'other'. */
export function classify(c: Rgb): 'white' | 'light-blue' | 'black' | 'other' {
  const l = luminance(c);
  if (l < 0.02) return 'black';
  const blueish = c.b - Math.min(c.r, c.g) >= 8 && c.b >= c.r;
  if (l > 0.6 && blueish) return 'light-blue';
  if (l > 0.9 && Math.max(c.r, c.g, c.b) - Math.min(c.r, c.g, c.b) < 8) return 'white';
  return 'other';
}
