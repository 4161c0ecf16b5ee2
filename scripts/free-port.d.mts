/** A free TCP port on 127.0.0.1, chosen by the OS. */
export function freePort(): Promise<number>;
