// fengari's internal modules, patched by lua51.ts and metering.ts (CommonJS, untyped).
declare module 'fengari/src/lobject.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/llex.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/ltable.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/ldebug.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/lstring.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/ltm.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/lstate.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/lvm.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/lopcodes.js' {
  const value: Record<string, unknown>;
  export default value;
}
declare module 'fengari/src/ldo.js' {
  const value: Record<string, unknown>;
  export default value;
}
