/**
 * Some messages live only a moment: "Redirecting to dashboard..." shows while the browser is already leaving the
 * page. An init script notes every watched text that appears in the document, in sessionStorage (which survives the
 * full-page navigation of the same tab), so the test can ask afterwards what the person saw.
 */
import type { Page } from '@playwright/test';

const KEY = 'e2e-seen-texts';

export async function watchForTexts(page: Page, texts: string[]): Promise<void> {
  await page.addInitScript(
    ([key, wanted]) => {
      const note = () => {
        const body = document.body?.innerText ?? '';
        const seen: string[] = JSON.parse(sessionStorage.getItem(key) ?? '[]');
        let changed = false;
        for (const t of wanted) {
          if (!seen.includes(t) && body.includes(t)) {
            seen.push(t);
            changed = true;
          }
        }
        if (changed) sessionStorage.setItem(key, JSON.stringify(seen));
      };
      new MutationObserver(note).observe(document, { childList: true, subtree: true, characterData: true });
    },
    [KEY, texts] as const,
  );
}

export async function seenTexts(page: Page): Promise<string[]> {
  return page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[], KEY);
}
