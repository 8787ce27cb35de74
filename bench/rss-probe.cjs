// Preloaded into every benchmarked process (node --require): records the peak RSS at exit.
'use strict';
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) {
    writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
  }
});
