export { ExpressionError, type Expr } from './ast';
export { parseExpression } from './parse';
export { printExpression } from './print';
export { evaluateExpression, holds } from './evaluate';
export { propertyContext, type PropertyContext } from './context';
export * from './limits';
