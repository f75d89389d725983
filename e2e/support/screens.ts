// Screenshots a spec writes to its output folder, for a person to look at (nothing compares them).
import { test, type Page } from '@playwright/test';

/**
 * The page at 1280 and at 390 px wide, as `<name>-<width>.png`, each once two frames have painted
 * (so that the new width's layout is drawn); the whole page unless `fullPage` is false. The page is
 * left at 1280 px.
 */
export async function shoot(page: Page, name: string, { fullPage = true } = {}) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
