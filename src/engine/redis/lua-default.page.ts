/**
 * The page's stand-in for `lua-default.ts` (vite.config.ts swaps them): the Lua engine is not part
 * of the first screen. The page installs it on demand by importing `lua/install.ts`.
 */
export {};
