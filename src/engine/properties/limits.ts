/** Bounds on a property expression: text, tokens, nesting and work are all capped (docs/SCENARIOS.md, "Properties"). */
export const EXPRESSION_LENGTH_MAX_CHARS = 500;
export const EXPRESSION_TOKEN_COUNT_MAX = 200;
export const EXPRESSION_DEPTH_MAX = 24;
/** Evaluation steps (nodes visited) per evaluation: a tree of at most TOKEN_COUNT_MAX nodes fits well within it. */
export const EVALUATION_STEP_COUNT_MAX = 1000;
