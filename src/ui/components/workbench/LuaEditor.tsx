/**
 * A CodeMirror 6 editor for one Lua script: Lua 5.1 highlighting (the legacy Lua mode), line
 * numbers, undo history, and diagnostics at their line. The parent owns the text; this component
 * owns the editor view and keeps it in step. Loaded only with the workbench (never first-screen code).
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
    const parent = host.current;
    if (!parent) return;
    const editor = new EditorView({
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
