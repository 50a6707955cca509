// The part of autocannon's API the web benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
  }
  interface Histogram {
    average: number
    mean: number
    p50: number
    p97_5: number
    p99: number
    total: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    throughput: Histogram
    errors: number
    timeouts: number
    non2xx: number
    duration: number
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
