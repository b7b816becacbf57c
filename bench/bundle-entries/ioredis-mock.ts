// Entry for bench/bundle.bench.ts: ioredis-mock's browser build, as the page used to load it.
export { default } from 'ioredis-mock';
