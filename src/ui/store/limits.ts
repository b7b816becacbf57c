/** Bounds the page's fields show (values, not the store's code: a component may import them). */
export { SPEEDS_STEPS_PER_S } from './slices/playback';
/** Longest clock advance or stall the engine accepts (ms): the bound of the duration fields. */
export { advanceMsMax } from '../../engine/schedule';
/** A share link's definition payload (characters) and a scenario file (bytes), at most. */
export { definitionLinkCharsMax, scenarioFileBytesMax } from '../../definition/bounds';
/** A recorded history file (bytes) the Import panel reads, at most. */
export { historyFileBytesMax } from './io-history';
