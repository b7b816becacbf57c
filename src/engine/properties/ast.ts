/** A property expression's syntax tree (parse.ts builds it, evaluate.ts reads it, print.ts writes it back). */
export type Literal = string | number | boolean | null;

export type ComparisonOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A path step: a field name (`event.kind`) or an index (`event.args[1]`). */
export type PathStep = string | number;

export type Expr =
  | { readonly type: 'literal'; readonly value: Literal }
  | { readonly type: 'path'; readonly steps: readonly PathStep[] }
  | { readonly type: 'not'; readonly operand: Expr }
  | { readonly type: 'and' | 'or'; readonly left: Expr; readonly right: Expr }
  | { readonly type: 'compare'; readonly op: ComparisonOp; readonly left: Expr; readonly right: Expr };

/** The only error the tokenizer, the parser and the evaluator throw; `column` is 1-based. */
export class ExpressionError extends Error {
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(`${reason} at column ${column}`);
    this.name = 'ExpressionError';
  }
}
