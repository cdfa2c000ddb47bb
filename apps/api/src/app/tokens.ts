/** Injection tokens of the ports the app's services depend on. */
export const CONFIG = Symbol('CONFIG');
export const STORE = Symbol('STORE');
export const MESSENGER = Symbol('MESSENGER');
export const CLOCK = Symbol('CLOCK');
export const SERIALS = Symbol('SERIALS');
export const SANDBOX = Symbol('SANDBOX');
