/**
 * Every realm that imports the engine gets the Lua engine at once (Node, the CLI, the workers, the
 * tests), so a run can evaluate scripts synchronously. The page's build replaces this module by
 * `lua-default.page.ts`, which installs nothing: the page loads the Lua engine on demand
 * (vite.config.ts, `pageLoadsLuaOnDemand`; docs/ARCHITECTURE.md, "What the first screen loads").
 */
import './lua/install';
