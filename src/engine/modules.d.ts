declare module 'fengari';
