export interface DbProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** Closes the port and cuts every connection through it. */
  refuse(): Promise<void>;
  /** Opens the same port again. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy on a free port of 127.0.0.1 in front of `target`. */
export function startDbProxy(target: { host: string; port: number }): Promise<DbProxy>;
