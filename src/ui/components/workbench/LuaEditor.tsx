/**
 * A CodeMirror 6 editor for one Lua script: Lua 5.1 highlighting (the legacy Lua mode), line
 * numbers, undo history, and diagnostics at their line. The parent owns the text; this component
 * owns the editor view and keeps it in step. Loaded only with the workbench (never first-screen code).
 *
 * The editor lives in a shadow root: there CodeMirror adopts its styles as constructed style
 * sheets, which the page's Content Security Policy allows (`style-src 'self'`, no 'unsafe-inline';
 * docs/DEPLOY.md). Mounted on the document itself it writes `<style>` elements, which that policy
 * blocks. The page's look reaches it through the theme below: custom properties cross the boundary.
 */
import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { defaultHighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';

export interface LineProblem {
  readonly line: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

interface Props {
  readonly text: string;
  readonly label: string;
  readonly problems: readonly LineProblem[];
  readonly onChange: (text: string) => void;
}

const luaLanguage = StreamLanguage.define(lua);

/** The page's colours and fonts inside the shadow root (its stylesheets do not reach in). */
const pageTheme = EditorView.theme({
  '&': { maxHeight: '46vh', background: 'var(--surface)', color: 'var(--text)', fontSize: 'var(--fs-code)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: 'var(--line-code)' },
  '.cm-gutters': { background: 'var(--surface-2)', color: 'var(--text-3)', borderRight: '1px solid var(--border)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
});

/**
 * Typing over a selection that spans lines: Chromium's own editing first rewrites the DOM with
 * inline `style` attributes (which the CSP refuses, reporting a violation) before CodeMirror reads
 * the change back. Replacing the selection through CodeMirror instead gives the same text with no
 * native edit. IME composition is left to the browser and CodeMirror, as it must be.
 */
/** The range a text input is about to replace: the event's target range, else the DOM's selection. */
function replacedRange(event: InputEvent, view: EditorView): { readonly from: number; readonly to: number } | null {
  // CodeMirror's own selection may not have caught up with a selection made a moment ago (it reads
  // the DOM's on `selectionchange`, a task later): ask the DOM.
  const target = event.getTargetRanges()[0] ?? (view.root as Document | ShadowRoot & { getSelection?: () => Selection | null }).getSelection?.()?.getRangeAt(0);
  if (target === undefined || target.collapsed) return null;
  try {
    return { from: view.posAtDOM(target.startContainer, target.startOffset), to: view.posAtDOM(target.endContainer, target.endOffset) };
  } catch {
    return null;
  }
}

const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== 'insertText' || event.data === null || view.composing) return false;
    // A caret is safe to leave to the browser and CodeMirror.
    const range = replacedRange(event, view);
    if (range === null) return false;
    event.preventDefault();
    view.dispatch({ changes: { ...range, insert: event.data }, selection: { anchor: range.from + event.data.length }, userEvent: 'input.type', scrollIntoView: true });
    return true;
  },
});

/** The shadow root the editor mounts in (one per host element, kept across remounts). */
function shadowOf(host: HTMLElement): { readonly root: ShadowRoot; readonly parent: HTMLElement } {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  const parent = document.createElement('div');
  root.append(parent);
  return { root, parent };
}

function diagnostics(view: EditorView, problems: readonly LineProblem[]): Diagnostic[] {
  const doc = view.state.doc;
  return problems.map((p) => {
    const line = doc.line(Math.max(1, Math.min(doc.lines, p.line)));
    return { from: line.from, to: Math.max(line.from, line.to), severity: p.severity, message: p.message };
  });
}

export function LuaEditor({ text, label, problems, onChange }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const { root, parent } = shadowOf(host.current);
    const editor = new EditorView({
      root,
      parent,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          luaLanguage,
          syntaxHighlighting(defaultHighlightStyle),
          lintGutter(),
          pageTheme,
          typeOverSelection,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is built once per script; text and problems flow in through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== text) editor.dispatch({ changes: { from: 0, to: current.length, insert: text } });
  }, [text]);

  // Problems arrive as a fresh array per render: compare their content, not their identity.
  const problemsKey = JSON.stringify(problems);
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, diagnostics(editor, JSON.parse(problemsKey) as LineProblem[])));
  }, [problemsKey, text]);

  return <div ref={host} className="lua-editor" data-testid="workbench.script-editor" />;
}
