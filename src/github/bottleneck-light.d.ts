/**
 * bottleneck's light build (no Redis clustering), the one octokit's retry and throttling plugins
 * use, ships without type declarations of its own; its API is the full build's.
 */
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
