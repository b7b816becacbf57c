/**
 * The engine's shapes the run views draw, as the store publishes them. Views (pure props -> SVG)
 * may import this file and nothing else of the store; nothing under src/ui imports the engine.
 */
export type { NodeView, TraceEvent, ViolationKind } from '../../engine/trace';
export type { Reply } from '../../engine/redis/reply';
export type { LockState } from '../../engine/lock-state';
export type { LockInterval } from '../../engine/projection';
export type { RunLog, RunProjectionView } from './types';
export { formatReplyShort } from '../../engine/redis/reply';
