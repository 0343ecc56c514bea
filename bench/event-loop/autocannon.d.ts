/** The slice of autocannon's programmatic API this bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    connections?: number;
    amount?: number;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Result {
    non2xx: number;
    /** Seconds. */
    duration: number;
    errors: number;
    requests: { total: number; average: number };
    latency: { p50: number; p99: number };
  }
  export default function autocannon(options: Options): Promise<Result>;
}
