/**
 * The command side of the response fuzz (scripts/fuzz-responses.ts): a real node script that a
 * `command` target runs as `node misbehave.mjs NAME SEED`, and what each of its misbehaviours
 * must end as. The script reads the case on stdin as evalgate writes it, then answers as NAME
 * says: garbage, huge output, invalid UTF-8, a non-zero exit, death by a signal, the secret
 * (`FUZZ_API_KEY`, inherited from evalgate's environment) printed on stdout or stderr.
 */
import type { Expectation } from './fuzz-responses.ts';

/**
 * Misbehaviour → what the case must end as, with `output: text` and with `output: json` (where
 * the script prints its well-behaved answers as JSON).
 */
export const COMMAND_MUTATIONS: Record<string, [text: Expectation, json: Expectation]> = {
  valid: ['ok', 'ok'],
  garbage: ['any', /JSON|UTF-8/],
  'huge-stdout': ['ok', 'ok'],
  'invalid-utf8': [/UTF-8/, /UTF-8/],
  'exit-nonzero': [/code 3/, /code 3/],
  'exit-nonzero-silent': [/code 1/, /code 1/],
  'killed-sigkill': [/SIGKILL/, /SIGKILL/],
  'killed-sigsegv': [/SIGSEGV/, /SIGSEGV/],
  'secret-stdout': ['ok', 'ok'],
  'secret-bad-json': ['ok', /JSON/],
  'secret-stderr-exit': [/code 2/, /code 2/],
  'huge-stderr-line': [/code 4/, /code 4/],
  'stdout-closed-early': ['any', 'any'],
  'nul-and-escapes': ['ok', 'ok'],
  'no-stdin-read': ['ok', 'ok'],
  'slow-within-timeout': ['ok', 'ok'],
  'past-timeout': [/timed out/, /timed out/],
  'log-line-then-json': ['ok', /JSON/],
  'orphan-holds-stdout': ['ok', 'ok'],
  'ignores-sigterm-past-timeout': [/timed out/, /timed out/],
};

/** The script's text (plain ESM JavaScript, nothing to compile). */
export const MISBEHAVE_SCRIPT = String.raw`
const [name, seedText, mode] = process.argv.slice(2);
let seed = Number(seedText) >>> 0;
const next = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const secret = process.env.FUZZ_API_KEY ?? '';
// In json mode, each well-behaved answer is printed as a JSON string.
const out = (text) => process.stdout.write(mode === 'json' ? JSON.stringify(text) : text);
const done = (code) => process.stdout.write('', () => process.exit(code));
const act = () => {
  switch (name) {
    case 'valid': out('fine\n'); return done(0);
    case 'garbage': {
      const bytes = Buffer.alloc(200 + Math.floor(next() * 2000));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 128);
      process.stdout.write(bytes);
      return done(0);
    }
    case 'huge-stdout': out('fine ' + 'z'.repeat(1000000 + Math.floor(next() * 2000000)) + '\n'); return done(0);
    case 'invalid-utf8': process.stdout.write(Buffer.from([0x22, 0x66, 0x69, 0x0a, 0x6e, 0xe9, 0xff, 0x65, 0x22])); return done(0);
    case 'secret-bad-json': process.stdout.write('{"key": ' + secret + '}'); return done(0);
    case 'log-line-then-json': process.stdout.write('loaded ' + secret + '\n"fine"'); return done(0);
    case 'exit-nonzero': process.stderr.write('Traceback (most recent call last):\n  File "a.py", line 1\nValueError: bad\n'); return done(3);
    case 'exit-nonzero-silent': return done(1);
    case 'killed-sigkill': out('half'); return process.kill(process.pid, 'SIGKILL');
    case 'killed-sigsegv': return process.kill(process.pid, 'SIGSEGV');
    case 'secret-stdout': out('a'.repeat(Math.floor(next() * 1200)) + ' the key is ' + secret + ' b'.repeat(Math.floor(next() * 800)) + '\n'); return done(0);
    case 'secret-stderr-exit': {
      const pad = 'e'.repeat(Math.floor(next() * 70000));
      process.stderr.write('starting\n' + pad + ' key=' + secret + '\nError: auth failed for ' + secret + '\n');
      return done(2);
    }
    case 'huge-stderr-line': process.stderr.write('w'.repeat(100000 + Math.floor(next() * 100000)) + secret); return done(4);
    case 'stdout-closed-early': out('fine'); require_close(); return setTimeout(() => done(0), 20);
    case 'nul-and-escapes': out('fi\u0000ne \u001b[31mred\u001b[0m \u202e\n'); return done(0);
    case 'slow-within-timeout': return setTimeout(() => { out('fine'); done(0); }, 200 + Math.floor(next() * 300));
    case 'past-timeout': return setTimeout(() => done(0), 60000);
    case 'orphan-holds-stdout': {
      // A child in a group of its own, holding stdout open for a while after this one exits.
      import('node:child_process').then(({ spawn }) => {
        spawn(process.execPath, ['-e', 'setTimeout(() => {}, 2500)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] }).unref();
        out('fine');
        done(0);
      });
      return;
    }
    case 'ignores-sigterm-past-timeout': process.on('SIGTERM', () => {}); return setTimeout(() => done(0), 60000);
    default: out('fine'); return done(0);
  }
};
const require_close = () => { try { process.stdout.destroy(); } catch {} };
if (name === 'no-stdin-read') { out('fine'); done(0); }
else { process.stdin.resume(); process.stdin.on('end', act); }
`;
