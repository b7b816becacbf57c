/**
 * Looks of the page for screenshots and layout tests: viewport, theme, presentation mode and
 * language, set through the page's own toggles (names as in docs/AUTOMATION.md).
 */
import { expect, type LockstepPage } from './fixtures';

export interface Look {
  readonly name: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly dark: boolean;
  readonly presentation: boolean;
  readonly zh: boolean;
}

export const SMALL = { width: 1280, height: 720 } as const;
export const LARGE = { width: 1920, height: 1080 } as const;

/** Puts the page in a look through its own toggles. */
export async function applyLook(app: LockstepPage, look: Look): Promise<void> {
  await app.page.setViewportSize(look.viewport);
  await app.page.getByRole('button', { name: look.zh ? '中文' : 'English', exact: true }).click();
  const dark = app.page.getByRole('button', { name: look.zh ? '深色主题' : 'Dark theme', exact: true });
  if ((await dark.getAttribute('aria-pressed')) !== String(look.dark)) await dark.click();
  const presentation = app.page.getByRole('button', { name: look.zh ? '演示模式' : 'Presentation mode', exact: true });
  if ((await presentation.getAttribute('aria-pressed')) !== String(look.presentation)) await presentation.click();
  await expect(app.page.locator('html')).toHaveAttribute('data-presentation', look.presentation ? 'on' : 'off');
  await expect(app.page.locator('html')).toHaveAttribute('data-theme', look.dark ? 'dark' : 'light');
}
