/** The slice of autocannon's programmatic API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface RequestOptions {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request is sent; the returned object is what is sent. */
    setupRequest?: (request: { headers: Record<string, string>; body?: string }) => { headers: Record<string, string>; body?: string };
  }
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    amount?: number;
    /** Seconds. */
    duration?: number;
    /** Requests a second across all connections (a fixed rate instead of as fast as possible). */
    overallRate?: number;
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestOptions[];
  }
  interface Result {
    non2xx: number;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    requests: { total: number; average: number };
    latency: { p50: number; p90: number; p99: number; max: number };
    statusCodeStats?: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
