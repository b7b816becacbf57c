/**
 * English prose on the Chinese page: the page's visible text (and the names a screen reader
 * reads: aria-label, title, placeholder) with code, keys and values left out. Code is what sits
 * in <code>, <pre>, <kbd>, <samp>, editors and inputs, or under `translate="no"` (client ids,
 * schedules, Redis commands and replies). Prose is two English words of three letters or more in
 * a row, lower-case: "the lock", "cannot step". A Redis command in running text is code: from
 * its upper-case name to the next CJK character or punctuation ("SET key token NX PX 5000"),
 * and so is a key ("fencing:token").
 */
import type { Page } from '@playwright/test';

export interface EnglishFound {
  readonly where: string;
  readonly text: string;
}

export function englishOnPage(page: Page): Promise<EnglishFound[]> {
  return page.evaluate(() => {
    const CODE = 'code, pre, kbd, samp, textarea, input, select, .cm-editor, [translate="no"], script, style, noscript';
    const PROSE = /\b[a-z]{3,}\s+[a-z]{3,}\b/;
    const COMMAND = /\b[A-Z][A-Z_]{2,}\b[^\u3000-\u303f\u4e00-\u9fff\uff00-\uffef,.;:()]*/g;
    const prose = (text: string): boolean => PROSE.test(text.replace(COMMAND, ' '));
    const found: { where: string; text: string }[] = [];
    const describe = (el: Element): string => {
      const id = el.closest('[data-testid]')?.getAttribute('data-testid');
      return id ? `[data-testid=${id}] <${el.tagName.toLowerCase()}>` : `<${el.tagName.toLowerCase()}>`;
    };
    const isCode = (el: Element): boolean => el.closest(CODE) !== null;
    const visible = (el: Element): boolean => (el as HTMLElement).checkVisibility?.({ checkOpacity: true, checkVisibilityCSS: true }) ?? true;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (el === null || text === '' || isCode(el) || !visible(el)) continue;
      if (prose(text)) found.push({ where: describe(el), text: text.slice(0, 160) });
    }
    for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (isCode(el) && el.tagName !== 'INPUT' && el.tagName !== 'TEXTAREA') continue;
      if (!visible(el)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder']) {
        const text = el.getAttribute(attr)?.trim() ?? '';
        if (prose(text)) found.push({ where: `${describe(el)} @${attr}`, text: text.slice(0, 160) });
      }
    }
    return found;
  });
}
