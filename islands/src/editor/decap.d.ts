// The two Decap packages the editor extends ship no types: what it uses of them.
declare module "decap-cms-backend-proxy" {
  export class ProxyBackend {
    proxyUrl: string;
    branch: string;
    constructor(config: unknown, options?: unknown);
    request(payload: { action: string; params: Record<string, unknown> }): Promise<unknown>;
  }
}
declare module "decap-cms-lib-util" {
  export class APIError extends Error {
    constructor(message: string, status: number, api: string);
  }
}
