/** Bounds the page's fields show (values, not the store's code: a component may import them). */
export { SPEEDS_STEPS_PER_S } from './slices/playback';
/** Longest clock advance or stall the engine accepts (ms): the bound of the duration fields. */
export { advanceMsMax } from '../../engine/schedule';
