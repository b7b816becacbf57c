/**
 * Export of the timeline and the sequence diagram as standalone files. The views style their SVG
 * with page CSS (theme variables), which a file opened elsewhere does not have, so export copies
 * each element's computed style into the file. PNG: the standalone SVG drawn on a canvas at 2x.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { buildSequenceModel } from './sequence-model';
import { sequenceWidth } from './sequence-layout';
import { SequenceSvg } from './sequence-svg';
import { TIMELINE_GEOMETRY } from './timeline-geometry';
import { layoutTimeline } from './timeline-layout';
import { createTimelineModelBuilder } from './timeline-model';
import { TimelineSvg } from './timeline-svg';
import { zoomOf } from './timeline-zoom';
import type { RunViewProps } from './types';

export type ExportTarget = 'timeline' | 'sequence';
export type ExportFormat = 'svg' | 'png';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Presentation properties a standalone SVG needs; everything else keeps its SVG default. */
const INLINED_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'stroke-linejoin',
  'stroke-linecap',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'visibility',
  'display',
] as const;

/** `lockstep-<scenario>-<variant>-timeline.svg`: safe characters only. */
export function exportFileName(base: string, target: ExportTarget, format: ExportFormat): string {
  const safe = base
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    // No leading dot (a hidden file) or dangling dashes.
    .replace(/^[-.]+|-+$/g, '');
  return `${safe || 'lockstep'}-${target}.${format}`;
}

/**
 * Copies the computed style of every element of `source` (which must be in the document) onto
 * the matching element of `clone` (a deep clone of it), replacing its classes' and variables' work.
 */
function inlineComputedStyles(source: Element, clone: Element): void {
  const view = source.ownerDocument.defaultView;
  if (!view) return;
  const sources = [source, ...Array.from(source.querySelectorAll('*'))];
  const clones = [clone, ...Array.from(clone.querySelectorAll('*'))];
  const count = Math.min(sources.length, clones.length);
  for (let i = 0; i < count; i++) {
    const from = sources[i];
    const to = clones[i];
    if (to.namespaceURI === SVG_NS && to.localName !== 'title') {
      const computed = view.getComputedStyle(from);
      const declarations: string[] = [];
      for (const property of INLINED_PROPERTIES) {
        const value = computed.getPropertyValue(property);
        if (value !== '' && !value.includes('var(')) declarations.push(`${property}:${value}`);
      }
      if (declarations.length > 0) to.setAttribute('style', declarations.join(';'));
      else to.removeAttribute('style');
    }
  }
}

export interface SerializeOptions {
  /** Copy computed styles (needs `svg` in the document). Default true. */
  readonly inlineStyles?: boolean;
}

/** The SVG as a standalone, well-formed file: namespaces, unscaled size, no interaction attributes. */
export function serializeSvg(svg: SVGSVGElement, options: SerializeOptions = {}): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  if (options.inlineStyles !== false) inlineComputedStyles(svg, clone);
  clone.setAttribute('xmlns', SVG_NS);
  clone.setAttribute('xmlns:xlink', XLINK_NS);
  const [, , width, height] = (svg.getAttribute('viewBox') ?? '').split(/\s+/).map(Number);
  if (Number.isFinite(width) && Number.isFinite(height)) {
    clone.setAttribute('width', String(width));
    clone.setAttribute('height', String(height));
  }
  // A file is not interactive: drop focus stops and roles; keep <title>s (tooltips in viewers).
  for (const el of [clone, ...Array.from(clone.querySelectorAll('*'))]) {
    el.removeAttribute('tabindex');
    el.removeAttribute('role');
    el.removeAttribute('aria-hidden');
  }
  // The sticky gutter follows the scroll position on screen; in a file it sits at the origin.
  clone.querySelectorAll('.lsv-sticky').forEach((g) => g.removeAttribute('transform'));
  const text = new XMLSerializer().serializeToString(clone);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text}`;
}

function svgSize(svgText: string): { widthPx: number; heightPx: number } {
  const match = /<svg[^>]*\bviewBox="0 0 ([0-9.]+) ([0-9.]+)"/.exec(svgText);
  if (!match) throw new Error('export: the SVG has no viewBox');
  return { widthPx: Number(match[1]), heightPx: Number(match[2]) };
}

/** Draws standalone SVG text on a canvas at `scale` and returns it as PNG. */
async function svgToPng(svgText: string, scale = 2): Promise<Blob> {
  const { widthPx, heightPx } = svgSize(svgText);
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    image.decoding = 'sync';
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the SVG could not be drawn'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    // Browsers cap canvas size; a very long run is drawn at 1x rather than failing.
    const maxSide = 16_000;
    const fit = Math.min(scale, maxSide / widthPx, maxSide / heightPx);
    canvas.width = Math.max(1, Math.floor(widthPx * fit));
    canvas.height = Math.max(1, Math.floor(heightPx * fit));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.setTransform(fit, 0, 0, fit, 0, 0);
    context.drawImage(image, 0, 0, widthPx, heightPx);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Draws a whole run (nothing culled, no scroll offset) into a hidden container in the page, so
 * the page's CSS applies, and returns its standalone SVG text. The on-screen views draw only what
 * is near the viewport; a file should hold everything.
 */
export function renderRunSvg(target: ExportTarget, run: RunViewProps, widthPx = 1200): string {
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.className = 'lsv-view';
  host.style.cssText = 'position:fixed;left:-100000px;top:0;width:auto;height:auto;pointer-events:none;';
  document.body.append(host);
  const root = createRoot(host);
  try {
    // Everything drawn, nothing to jump to: a file is not interactive.
    const common = { cursorStep: run.cursorStep, nowMs: run.nowMs, lang: run.lang, onJump: () => {}, window: null, idPrefix: 'lsx' };
    const timeline = createTimelineModelBuilder(run.clientIds, run.tokenOwners).append(run.events, run.eventCount);
    let element;
    if (target === 'timeline') {
      const g = TIMELINE_GEOMETRY.comfortable;
      const slotWidths = { commandStepPx: g.commandStepPx, plainStepPx: g.plainStepPx };
      const natural = layoutTimeline(timeline, slotWidths);
      // A short run fills the file's width, a long one keeps its natural size (the view's auto zoom).
      const fitWidthPx = widthPx - g.gutterPx;
      const zoom = zoomOf('auto', natural.widthPx, fitWidthPx);
      const layout = layoutTimeline(timeline, { ...slotWidths, zoom, minWidthPx: fitWidthPx });
      element = createElement(TimelineSvg, { ...common, model: timeline, layout });
    } else {
      element = createElement(SequenceSvg, {
        ...common,
        model: buildSequenceModel(run.events, run.tokenOwners, run.eventCount),
        timeline,
        clientIds: timeline.clientIds,
        widthPx: sequenceWidth(widthPx, timeline.clientIds.length),
      });
    }
    flushSync(() => root.render(element));
    const svg = host.querySelector('svg');
    if (!svg) throw new Error(`export: the ${target} did not render`);
    return serializeSvg(svg);
  } finally {
    root.unmount();
    host.remove();
  }
}

/** Exports and downloads: from a whole run when given, else from the SVG on screen. */
export async function exportView(options: {
  readonly target: ExportTarget;
  readonly format: ExportFormat;
  readonly fileBase: string;
  readonly run?: RunViewProps;
  readonly getSvg?: () => SVGSVGElement | null;
}): Promise<void> {
  let text: string;
  if (options.run) text = renderRunSvg(options.target, options.run);
  else {
    const svg = options.getSvg?.();
    if (!svg) throw new Error(`the ${options.target} is not on the page`);
    text = serializeSvg(svg);
  }
  const fileName = exportFileName(options.fileBase, options.target, options.format);
  const blob = options.format === 'svg' ? new Blob([text], { type: 'image/svg+xml;charset=utf-8' }) : await svgToPng(text, 2);
  downloadBlob(blob, fileName);
}
