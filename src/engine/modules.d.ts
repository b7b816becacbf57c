declare module 'ioredis-mock' {
  const RedisMock: unknown;
  export default RedisMock;
}
declare module 'fengari';
