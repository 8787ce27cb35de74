import { createRequire as __evalgateRequire } from 'node:module'; const require = __evalgateRequire(import.meta.url);

// src/bind/function-worker.ts
import { isMainThread, parentPort, workerData } from "node:worker_threads";

// src/config/module-spec.ts
import { isAbsolute, resolve } from "node:path";
function parseModuleSpec(spec, baseDir) {
  const hash = spec.lastIndexOf("#");
  const path = hash === -1 ? spec : spec.slice(0, hash);
  const exportName = hash === -1 ? "default" : spec.slice(hash + 1) || "default";
  return { spec, file: resolve(baseDir, path), exportName };
}

// src/shared/escaped-secrets.ts
var SIMPLE = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "	"
};
var ESCAPES = /\\(?:u([0-9a-fA-F]{4})|\/)/g;
function escapedSecretsScrub(values, replacement) {
  const chars = /* @__PURE__ */ new Set([...values.join("")]);
  const longestFirst = [...values].sort((a, b) => b.length - a.length);
  const hides = (text) => {
    for (const [, hex] of text.matchAll(ESCAPES)) {
      if (chars.has(hex === void 0 ? "/" : String.fromCharCode(Number.parseInt(hex, 16)))) {
        return true;
      }
    }
    return false;
  };
  return (text) => text.includes("\\") && hides(text) ? replaceDecoded(text, longestFirst, replacement) : text;
}
function replaceDecoded(text, longestFirst, replacement) {
  let decoded = "";
  const starts = new Uint32Array(text.length + 1);
  let count = 0;
  let i = 0;
  while (i < text.length) {
    starts[count++] = i;
    const next = text[i + 1] ?? "";
    if (text[i] === "\\" && next === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
      decoded += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
    } else if (text[i] === "\\" && Object.hasOwn(SIMPLE, next)) {
      decoded += SIMPLE[next];
      i += 2;
    } else {
      decoded += text[i];
      i += 1;
    }
  }
  starts[count] = text.length;
  const spans = [];
  for (const value of longestFirst) {
    for (let at = decoded.indexOf(value); at !== -1; at = decoded.indexOf(value, at + 1)) {
      const from = starts[at] ?? 0;
      const to = starts[at + value.length] ?? text.length;
      if (!spans.some(([f, t]) => from < t && to > f)) spans.push([from, to]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let last = 0;
  for (const [from, to] of spans) {
    out += text.slice(last, from) + replacement;
    last = to;
  }
  return out + text.slice(last);
}

// src/shared/one-line.ts
function oneLine(text) {
  return text.trim().replace(/\s*\r?\n\s*/g, " ");
}

// src/shared/secrets.ts
var REDACTED = "[redacted]";
var MIN_SECRET_LENGTH = 8;
var MIN_PARTIAL = 6;
var declared = /* @__PURE__ */ new Set();
function createScrubber(secrets) {
  const values = [.../* @__PURE__ */ new Set([...secrets, ...declared])].filter(
    (s) => s.length >= MIN_SECRET_LENGTH
  );
  values.sort((a, b) => b.length - a.length);
  if (values.length === 0) return NO_SECRETS;
  const forms = /* @__PURE__ */ new Set();
  const encoded = /* @__PURE__ */ new Set();
  for (const value of values) {
    for (const written of [value, ...oneLineForms(value)]) {
      forms.add(written);
      const escaped2 = JSON.stringify(written).slice(1, -1);
      forms.add(escaped2);
      if (escaped2.includes("/")) forms.add(escaped2.replaceAll("/", "\\/"));
      forms.add(encodeURIComponent(written));
    }
    for (const form of base64Forms(value)) encoded.add(form);
  }
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const all = [.../* @__PURE__ */ new Set([...forms, ...encoded])].sort((a, b) => b.length - a.length);
  const escaped = escapedSecretsScrub(values, REDACTED);
  const replaceAll = (text) => {
    let out = text;
    for (const form of all) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return escaped(out);
  };
  return {
    empty: false,
    values,
    longestBytes: Math.max(...all.map((form) => Buffer.byteLength(form, "utf8"))),
    text: replaceAll,
    json(text) {
      let out = replaceAll(text);
      if (out.includes("\u2026")) {
        for (const form of ordered) {
          for (let k = form.length - 1; k >= MIN_PARTIAL; k--) {
            const cut = `${form.slice(0, k)}\u2026`;
            if (out.includes(cut)) out = out.split(cut).join(`${REDACTED}\u2026`);
            const tail = `\u2026${form.slice(form.length - k)}`;
            if (out.includes(tail)) out = out.split(tail).join(`\u2026${REDACTED}`);
          }
        }
      }
      return out;
    }
  };
}
function oneLineForms(value) {
  if (!/[\r\n]/.test(value)) return [];
  const forms = [oneLine(value), value.trim().replace(/\s+/g, " ")];
  return forms.filter((form) => form.length >= MIN_SECRET_LENGTH && form !== value);
}
function base64Forms(value) {
  const bytes = Buffer.from(value, "utf8");
  const standard = [bytes.toString("base64")];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole >= 6) standard.push(bytes.subarray(skip, skip + whole).toString("base64"));
  }
  const urlSafe = standard.map(
    (form) => form.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")
  );
  return [...standard, ...urlSafe];
}
var NO_SECRETS = {
  text: (t) => t,
  json: (t) => t,
  empty: true,
  longestBytes: 0,
  values: []
};

// src/judge/run-secrets.ts
var FORMAT = 1;
var KEY = /* @__PURE__ */ Symbol.for(`evalgate.runSecrets@${FORMAT}`);
var LEGACY_KEY = /* @__PURE__ */ Symbol.for("evalgate.runSecrets");
var KEY_PREFIX = "evalgate.runSecrets";
var ownRegistry = { format: FORMAT, running: /* @__PURE__ */ new Map(), generation: 0 };
function sharedRegistry() {
  const holder = globalThis;
  let registry;
  const found = holder[KEY];
  if (isKnownRegistry(found)) registry = found;
  else if (found !== void 0) registry = ownRegistry;
  else {
    const legacy = holder[LEGACY_KEY];
    registry = isKnownRegistry(legacy) ? legacy : { format: FORMAT, running: /* @__PURE__ */ new Map(), generation: 0 };
    holder[KEY] = registry;
    if (legacy === void 0) holder[LEGACY_KEY] = registry;
  }
  const foreign = [];
  for (const key of Object.getOwnPropertySymbols(holder)) {
    if (!Symbol.keyFor(key)?.startsWith(KEY_PREFIX)) continue;
    const value = holder[key];
    if (value !== registry) foreign.push(value);
  }
  return { registry, foreign };
}
function isKnownRegistry(found) {
  if (typeof found !== "object" || found === null) return false;
  const { format, running, generation } = found;
  return (format === void 0 || format === FORMAT) && running instanceof Map && typeof generation === "number";
}
function holdRunSecrets(scrubber) {
  if (scrubber.empty) return () => {
  };
  const { registry: shared } = sharedRegistry();
  const entry = shared.running.get(scrubber);
  if (entry) entry.held++;
  else shared.running.set(scrubber, { values: scrubber.values, held: 1 });
  shared.generation++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const held = shared.running.get(scrubber);
    if (held !== void 0 && --held.held <= 0) shared.running.delete(scrubber);
    shared.generation++;
  };
}

// src/shared/describe-error.ts
function describeError(error) {
  try {
    return messageOf(error) + causesOf(error);
  } catch (reading) {
    let why = "";
    try {
      why = `: ${messageOf(reading)}`;
    } catch {
    }
    return `it threw a value whose message cannot be read${why}`;
  }
}
var CAUSES_SHOWN = 4;
function causesOf(error) {
  const seen = /* @__PURE__ */ new Set([error]);
  let text = messageOf(error);
  const quoted = [];
  let current = error;
  while (quoted.length < CAUSES_SHOWN) {
    let cause;
    try {
      if (typeof current !== "object" || current === null || !("cause" in current)) break;
      cause = current.cause;
      if (cause === void 0 || cause === null || seen.has(cause)) break;
      seen.add(cause);
      const message = messageOf(cause);
      if (!text.includes(message)) {
        quoted.push(message);
        text += `
${message}`;
      }
    } catch {
      break;
    }
    current = cause;
  }
  return quoted.length === 0 ? "" : ` (cause: ${quoted.join("; cause: ")})`;
}
var INNER_ERRORS_SHOWN = 5;
function messageOf(error) {
  const own = ownMessageOf(error);
  if (!isAggregateError(error) || !Array.isArray(error.errors) || error.errors.length === 0) {
    return own;
  }
  const errors = error.errors;
  const shown = errors.slice(0, INNER_ERRORS_SHOWN).map((inner) => {
    try {
      return ownMessageOf(inner);
    } catch {
      return "an error whose message cannot be read";
    }
  });
  const more = errors.length - shown.length;
  const count = `${errors.length} ${errors.length === 1 ? "error" : "errors"}`;
  return `${own} (${count}: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""})`;
}
function isAggregateError(error) {
  if (error instanceof AggregateError) return true;
  return typeof error === "object" && error !== null && error.name === "AggregateError" && "errors" in error;
}
function ownMessageOf(error) {
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null) {
    const message = error.message;
    if (typeof message === "string" && message !== "") return message;
    if (error instanceof Error) return error.name;
  }
  const json = jsonOf(error);
  return json ?? String(error);
}
function jsonOf(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return void 0;
  }
}

// src/shared/call-limit.ts
var limits = /* @__PURE__ */ new WeakMap();
function setCallLimit(signal, limit) {
  limits.set(signal, limit);
}

// src/run/call.ts
var CallScope = class {
  #controller;
  #aborted = false;
  #reason;
  #trial;
  /** The call's time limit: when it started, by `#now`, and how long it may take. */
  #started = 0;
  #timeoutMs;
  #now;
  constructor(trial = 1) {
    this.#trial = trial;
  }
  /** Which trial of the case the call is for, from 1 (always 1 without `trials:`). */
  get trial() {
    return this.#trial;
  }
  /** The signal handed to the callee; aborted on time-out or interrupt. */
  get signal() {
    if (this.#controller === void 0) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
      this.#registerLimit();
    }
    return this.#controller.signal;
  }
  /**
   * Records the call's time limit (`timeoutMs` from `started`, by the clock `now`), for the
   * signal: read by the retry loop (see shared/call-limit.ts). No allocation until the signal is.
   */
  static limit(scope, timeoutMs, started, now) {
    scope.#started = started;
    scope.#timeoutMs = timeoutMs;
    scope.#now = now;
    if (scope.#controller !== void 0) scope.#registerLimit();
  }
  #registerLimit() {
    const timeoutMs = this.#timeoutMs;
    const now = this.#now;
    if (timeoutMs === void 0 || now === void 0 || this.#controller === void 0) return;
    const deadline = this.#started + timeoutMs;
    setCallLimit(this.#controller.signal, { timeoutMs, msLeft: () => deadline - now() });
  }
  /**
   * Aborts a scope's signal (once; later reasons are ignored, like AbortController). Static so
   * that no `abort` method shows up on the objects user code receives.
   */
  static abort(scope, reason) {
    if (scope.#aborted) return;
    scope.#aborted = true;
    scope.#reason = reason;
    scope.#controller?.abort(reason);
  }
};
var FnCallArgs = class extends CallScope {
  testCase;
  params;
  constructor(testCase, params, trial = 1) {
    super(trial);
    this.testCase = testCase;
    this.params = params;
  }
};
function isThenable(value) {
  if (value === null || typeof value !== "object" && typeof value !== "function") return false;
  try {
    return typeof value.then === "function";
  } catch {
    return false;
  }
}

// src/targets/worker-thread.ts
function serveFunction(fn, port) {
  port.on("message", (request) => {
    void answer(fn, request, port);
  });
  port.postMessage({ type: "ready" });
}
async function answer(fn, request, port) {
  const { id } = request;
  let output;
  try {
    const value = fn(new FnCallArgs(request.testCase, request.params));
    output = isThenable(value) ? await value : value;
  } catch (thrown) {
    port.postMessage({ type: "threw", id, error: thrownInWorker(thrown) });
    return;
  }
  try {
    port.postMessage({ type: "returned", id, output });
  } catch (error) {
    port.postMessage({
      type: "unclonable",
      id,
      message: `the function's return value cannot be passed back from its worker thread (isolation: worker): ${describeError(error).replace(/\.$/, "")}; return plain data (objects, arrays, strings, numbers, booleans, null)`
    });
  }
}
function thrownInWorker(thrown) {
  const error = { message: describeError(thrown) };
  if (thrown instanceof Error) {
    try {
      if (typeof thrown.name === "string") error.name = thrown.name;
      if (typeof thrown.stack === "string") error.stack = thrown.stack;
    } catch {
    }
  }
  return error;
}

// src/bind/modules/loader.ts
import { stat } from "node:fs/promises";
import { extname as extname3, relative as relative2, sep as sep2 } from "node:path";
import { pathToFileURL as pathToFileURL2 } from "node:url";

// src/shared/regular-file.ts
function kindOf(stats) {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "a special file";
}

// src/bind/modules/exports.ts
import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

// src/shared/is-record.ts
function isPlainObject(value) {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// src/bind/modules/exports.ts
var MODULE_EXPORTS = "module.exports";
function findExport(mod, name) {
  const ns = mod.namespace;
  if (name === "default") return findDefault(mod);
  if (name !== MODULE_EXPORTS && name in ns) return { found: true, value: ns[name] };
  if (mod.commonJs) {
    const exports = moduleExports(ns);
    if (isObjectLike(exports) && hasExportProperty(exports, name)) {
      return { found: true, value: exports[name] };
    }
  }
  return { found: false };
}
function listExports(mod) {
  const ns = mod.namespace;
  const names = new Set(Object.keys(ns).filter((k) => k !== "default" && k !== MODULE_EXPORTS));
  if (mod.commonJs) {
    const exports = moduleExports(ns);
    if (isObjectLike(exports)) {
      for (const key of Object.keys(exports)) {
        if (key !== "default" && key !== "__esModule") names.add(key);
      }
    }
  }
  return { names: [...names].sort(), hasDefault: defaultWorthMentioning(mod) };
}
async function isCommonJsFile(file) {
  const ext = extname(file);
  if (ext === ".cjs" || ext === ".cts") return true;
  if (ext === ".mjs" || ext === ".mts") return false;
  let dir = dirname(file);
  for (; ; ) {
    if (basename(dir) === "node_modules") return true;
    const type = await packageType(join(dir, "package.json"));
    if (type !== void 0) return type !== "module";
    const parent = dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}
async function packageType(file) {
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return void 0;
  }
  try {
    const parsed = JSON.parse(text);
    const type = isObjectLike(parsed) ? parsed.type : void 0;
    return typeof type === "string" ? type : "";
  } catch {
    return "";
  }
}
function findDefault(mod) {
  const ns = mod.namespace;
  if (!mod.commonJs) return "default" in ns ? { found: true, value: ns.default } : { found: false };
  const exports = moduleExports(ns);
  if (isTranspiledEsm(exports)) {
    return "default" in exports ? { found: true, value: exports.default } : { found: false };
  }
  return exports === void 0 ? { found: false } : { found: true, value: exports };
}
function defaultWorthMentioning(mod) {
  if (!findDefault(mod).found) return false;
  if (!mod.commonJs) return true;
  const exports = moduleExports(mod.namespace);
  return isTranspiledEsm(exports) || !isPlainObject(exports);
}
function moduleExports(ns) {
  return MODULE_EXPORTS in ns ? ns[MODULE_EXPORTS] : ns.default;
}
function isTranspiledEsm(exports) {
  return isObjectLike(exports) && Boolean(exports.__esModule);
}
function isObjectLike(value) {
  return typeof value === "object" && value !== null || typeof value === "function";
}
function hasExportProperty(target, name) {
  if (typeof target === "function" && ["length", "name", "prototype"].includes(name)) return false;
  if (Object.hasOwn(target, name)) return true;
  return name in target && !(name in Object.prototype) && !(name in Function.prototype);
}

// src/bind/modules/import-scope.ts
import { AsyncResource, createHook, executionAsyncResource } from "node:async_hooks";
var marks = /* @__PURE__ */ new WeakMap();
var hook = createHook({
  init(_asyncId, _type, _triggerAsyncId, resource) {
    const file = marks.get(executionAsyncResource());
    if (file !== void 0) marks.set(resource, file);
  }
});
var open = 0;
async function importingAs(file, load) {
  const scope = new AsyncResource("evalgate.import");
  marks.set(scope, file);
  if (open++ === 0) hook.enable();
  try {
    return await scope.runInAsyncScope(load);
  } finally {
    if (--open === 0) hook.disable();
  }
}

// src/bind/modules/import-failure.ts
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// src/bind/modules/module-error.ts
import { isAbsolute as isAbsolute2, relative, sep } from "node:path";
function specPath(ref) {
  const hash = ref.spec.lastIndexOf("#");
  return hash === -1 ? ref.spec : ref.spec.slice(0, hash);
}
function refLabel(ref) {
  return ref.spec.includes("#") ? ref.spec : `${ref.spec} (default export)`;
}
function displayFile(file, ref) {
  if (file === ref.file) return specPath(ref);
  const rel = relative(process.cwd(), file);
  if (rel === "" || rel.startsWith("..") || isAbsolute2(rel)) return file;
  return `.${sep}${rel}`;
}

// src/bind/modules/import-failure.ts
function describeImportFailure(error, ref) {
  const transform = esbuildFailure(error);
  if (transform) {
    const file = transform.file === void 0 ? ref.file : sourceFile(transform.file, ref);
    return {
      code: "module.syntax",
      message: syntaxMessage(file, transform.text, ref),
      file,
      ...transform.line !== void 0 ? { line: transform.line } : {},
      ...transform.col !== void 0 ? { col: transform.col } : {}
    };
  }
  if (isSyntaxErrorFromParsing(error)) {
    const header = stackHeader(error.stack);
    const file = header?.file ?? ref.file;
    return {
      code: "module.syntax",
      message: syntaxMessage(file, firstLine(error.message), ref),
      file,
      ...header ? { line: header.line } : {}
    };
  }
  const at = stackFrameIn(error, ref.file);
  return {
    code: "module.load-failed",
    message: `${specPath(ref)} failed to load: ${errorText(error)}${missingPackageHint(error)}`,
    file: ref.file,
    ...at ? { line: at.line, col: at.col } : {}
  };
}
function missingPackageHint(error) {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : void 0;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return "";
  const name = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/.'][^/']*)/.exec(
    errorText(error)
  )?.[1];
  return name ? ` (is ${name} installed where the module can see it? npm i -D ${name})` : "";
}
function errorText(error) {
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = firstLine(String(error.message));
    const name = "name" in error && typeof error.name === "string" ? error.name : "Error";
    return name === "Error" || name === "" ? message : `${name}: ${message}`;
  }
  return firstLine(describeError(error));
}
var ESBUILD_LOCATED = /^(.*):(\d+):(\d+): ERROR: (.*)$/m;
var ESBUILD_UNLOCATED = /^error: (.*)$/m;
function esbuildFailure(error) {
  if (typeof error !== "object" || error === null) return void 0;
  const structured = structuredLocation(error);
  if (structured) return structured;
  const message = "message" in error && typeof error.message === "string" ? error.message : "";
  const name = "name" in error ? error.name : void 0;
  if (name !== "TransformError" && !message.startsWith("Transform failed with")) return void 0;
  const located = ESBUILD_LOCATED.exec(message);
  if (located) {
    const [, file = "", line = "0", column = "0", text = ""] = located;
    return { text, file, line: Number(line), col: Number(column) + 1 };
  }
  const bare = ESBUILD_UNLOCATED.exec(message);
  return { text: bare?.[1] ?? firstLine(message) };
}
function structuredLocation(error) {
  if (!("errors" in error) || !Array.isArray(error.errors)) return void 0;
  const first = error.errors[0];
  if (typeof first !== "object" || first === null || !("text" in first)) return void 0;
  const text = String(first.text);
  const location = "location" in first ? first.location : void 0;
  if (typeof location !== "object" || location === null) return { text };
  const { file, line, column } = location;
  return {
    text,
    ...typeof file === "string" && file !== "" ? { file } : {},
    ...typeof line === "number" ? { line } : {},
    ...typeof column === "number" ? { col: column + 1 } : {}
  };
}
function isSyntaxErrorFromParsing(error) {
  if (!(typeof error === "object" && error !== null && "name" in error)) return false;
  if (error.name !== "SyntaxError" || !("message" in error)) return false;
  const stack = "stack" in error && typeof error.stack === "string" ? error.stack : "";
  if (stackHeader(stack)) return true;
  const first = stackFrames(stack)[0];
  return first === void 0 || first.location.startsWith("node:");
}
function syntaxMessage(file, text, ref) {
  const importedFrom = file === ref.file ? "" : ` (imported from ${specPath(ref)})`;
  return `syntax error in ${displayFile(file, ref)}: ${text}${importedFrom}`;
}
function sourceFile(reported, ref) {
  const file = toPath(reported);
  const alternatives = file.endsWith(".ts") ? [file.slice(0, -3) + ".mts", file.slice(0, -3) + ".cts"] : file.endsWith(".js") ? [file.slice(0, -3) + ".mjs"] : [];
  if (alternatives.includes(ref.file)) return ref.file;
  if (existsSync(file)) return file;
  return alternatives.find((alt) => existsSync(alt)) ?? file;
}
function toPath(location) {
  if (location.startsWith("file:")) {
    try {
      return fileURLToPath(location);
    } catch {
      return location;
    }
  }
  const query = location.indexOf("?");
  return query === -1 ? location : location.slice(0, query);
}
var FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;
function stackFrames(stack) {
  const frames = [];
  for (const text of stack.split("\n")) {
    const match = FRAME.exec(text);
    if (match) {
      const [, location = "", line = "0", col = "0"] = match;
      frames.push({ location, line: Number(line), col: Number(col) });
    }
  }
  return frames;
}
function stackFrameIn(error, file) {
  if (typeof error !== "object" || error === null || !("stack" in error)) return void 0;
  if (typeof error.stack !== "string") return void 0;
  return stackFrames(error.stack).find((frame) => toPath(frame.location) === file);
}
var HEADER = /^(.+):(\d+)$/;
function stackHeader(stack) {
  const first = stack?.split("\n", 1)[0];
  const match = first === void 0 ? null : HEADER.exec(first);
  if (!match) return void 0;
  const [, location = "", line = "0"] = match;
  const file = toPath(location);
  return existsSync(file) ? { file, line: Number(line) } : void 0;
}
function firstLine(text) {
  return text.split("\n", 1)[0] ?? "";
}

// src/bind/modules/nearby-file.ts
import { readdir } from "node:fs/promises";
import { basename as basename2, dirname as dirname2, extname as extname2, join as join2 } from "node:path";

// src/shared/edit-distance.ts
var LEVENSHTEIN_CELL_BUDGET = 2e7;
function editDistance(left, right, options = {}) {
  const a = codePoints(left);
  const b = codePoints(right);
  const budget = options.budget ?? LEVENSHTEIN_CELL_BUDGET;
  const transpositions = options.transpositions ?? false;
  let start2 = 0;
  while (start2 < a.length && start2 < b.length && a[start2] === b[start2]) start2++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start2 && endB > start2 && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const [long, short] = endA - start2 >= endB - start2 ? [a.slice(start2, endA), b.slice(start2, endB)] : [b.slice(start2, endB), a.slice(start2, endA)];
  const n = long.length;
  const m = short.length;
  if (m === 0) return { distance: n, exact: true };
  if (n * m <= budget) {
    return { distance: bandedDistance(long, short, n, transpositions), exact: true };
  }
  let best = n;
  for (let k = Math.max(n - m, 32); n * (2 * k + 1) <= budget; k *= 2) {
    const distance = bandedDistance(long, short, k, transpositions);
    if (distance <= k) return { distance, exact: true };
    best = Math.min(best, distance);
  }
  return { distance: best, exact: false };
}
function codePoints(text) {
  return Array.from(text, (char) => char.codePointAt(0) ?? 0);
}
function bandedDistance(a, b, k, transpositions) {
  const n = a.length;
  const m = b.length;
  const unreachable = n + m + 1;
  let beforeLast = new Uint32Array(m + 1).fill(unreachable);
  let prev = new Uint32Array(m + 1).fill(unreachable);
  let cur = new Uint32Array(m + 1).fill(unreachable);
  for (let j = 0; j <= Math.min(m, k); j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - k);
    const hi = Math.min(m, i + k);
    cur[lo - 1] = lo === 1 ? i : unreachable;
    const ai = a[i - 1];
    const swappable = transpositions && i > 1;
    for (let j = lo; j <= hi; j++) {
      const bj = b[j - 1];
      const substitute = (prev[j - 1] ?? unreachable) + (ai === bj ? 0 : 1);
      const remove = (prev[j] ?? unreachable) + 1;
      const insert = (cur[j - 1] ?? unreachable) + 1;
      let best = Math.min(substitute, remove, insert);
      if (swappable && j > 1 && ai === b[j - 2] && a[i - 2] === bj) {
        best = Math.min(best, (beforeLast[j - 2] ?? unreachable) + 1);
      }
      cur[j] = best;
    }
    if (hi < m) cur[hi + 1] = unreachable;
    [beforeLast, prev, cur] = [prev, cur, beforeLast];
  }
  return prev[m] ?? unreachable;
}

// src/bind/modules/nearby-file.ts
var MODULE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".jsx"];
async function suggestSibling(file) {
  const dir = dirname2(file);
  const candidates = await moduleFilesIn(dir);
  if (candidates.length === 0) return void 0;
  const wanted = basename2(file);
  const stem = stripModuleExtension(wanted);
  const sameStem = candidates.filter((name) => stripModuleExtension(name) === stem).sort((a, b) => extensionRank(a) - extensionRank(b));
  if (sameStem[0] !== void 0) return join2(dir, sameStem[0]);
  const limit = Math.max(1, Math.min(3, Math.floor(wanted.length / 4)));
  let best;
  for (const name of candidates.sort()) {
    const { distance } = editDistance(wanted.toLowerCase(), name.toLowerCase());
    if (distance <= limit && (best === void 0 || distance < best.distance)) {
      best = { name, distance };
    }
  }
  return best && join2(dir, best.name);
}
async function suggestIndexFile(dir) {
  const files = await moduleFilesIn(dir);
  const index = files.filter((name) => stripModuleExtension(name) === "index").sort((a, b) => extensionRank(a) - extensionRank(b));
  return index[0] && join2(dir, index[0]);
}
async function moduleFilesIn(dir) {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && extensionRank(e.name) !== -1).map((e) => e.name);
  } catch {
    return [];
  }
}
function extensionRank(name) {
  return MODULE_EXTENSIONS.indexOf(extname2(name));
}
function stripModuleExtension(name) {
  return extensionRank(name) === -1 ? name : name.slice(0, -extname2(name).length);
}

// src/bind/modules/typescript-loader.ts
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname as dirname3, join as join3 } from "node:path";
import { pathToFileURL } from "node:url";
var loaders = 0;
var TsxMissingError = class extends Error {
  code = "module.tsx-missing";
  constructor(searched) {
    super(
      `loading TypeScript modules needs tsx, which comes with the evalgate package, and none was found${searched.length > 0 ? ` from ${searched.join(" or ")}` : ""}: add evalgate to the project (npm i -D evalgate) and install dependencies (npm ci) before running evals`
    );
    this.name = "TsxMissingError";
  }
};
async function importTsx(searchFrom) {
  for (const dir of searchFrom) {
    const root = tsxRoot(dir);
    if (root === null) continue;
    const entry = (subpath) => pathToFileURL(join3(root, importEntry(root, subpath))).href;
    return Promise.all([
      import(entry("./esm/api")),
      import(entry("./cjs/api"))
    ]);
  }
  try {
    return await Promise.all([import("tsx/esm/api"), import("tsx/cjs/api")]);
  } catch (error) {
    if (error.code === "ERR_MODULE_NOT_FOUND")
      throw new TsxMissingError(searchFrom);
    throw error;
  }
}
function tsxRoot(dir) {
  try {
    return dirname3(createRequire(join3(dir, "package.json")).resolve("tsx/package.json"));
  } catch {
    return null;
  }
}
function importEntry(root, subpath) {
  const pkg = JSON.parse(readFileSync(join3(root, "package.json"), "utf8"));
  const target = pkg.exports?.[subpath]?.import;
  const file = typeof target === "string" ? target : target?.default;
  if (file === void 0) throw new TsxMissingError([root]);
  return file;
}
async function startTypeScriptLoader(searchFrom = []) {
  const started = performance.now();
  const [esm, cjs] = await importTsx(searchFrom);
  loaders += 1;
  const namespace = `evalgate-${loaders}`;
  cjs.register({ namespace });
  const api = esm.register({ namespace });
  const startupMs = performance.now() - started;
  return {
    // The specifier is an absolute URL, so the parent only has to be a valid file URL.
    import: (url) => api.import(url, import.meta.url),
    startupMs
  };
}

// src/bind/modules/loader.ts
var TYPESCRIPT_EXTENSIONS = /* @__PURE__ */ new Set([".ts", ".mts", ".cts", ".tsx", ".jsx"]);
var importing = /* @__PURE__ */ new Set();
function createModuleLoader(options = {}) {
  const files = /* @__PURE__ */ new Map();
  let typescript;
  let startupMs = null;
  const importTypeScript = async (file, url) => {
    typescript ??= startTypeScriptLoader(options.tsxSearchFrom).then((started) => {
      startupMs = started.startupMs;
      return started;
    });
    const loader = await typescript;
    return importingAs(file, () => loader.import(url));
  };
  const loadFile = async (file) => {
    const found = await stat(file).catch(() => void 0);
    if (!found?.isFile()) {
      const isDirectory = found?.isDirectory() ?? false;
      const suggestion = isDirectory ? await suggestIndexFile(file) : await suggestSibling(file);
      const special = found !== void 0 && !isDirectory ? kindOf(found) : void 0;
      return { kind: "missing", isDirectory, suggestion, ...special ? { special } : {} };
    }
    if (options.importModules === false) return { kind: "not-imported" };
    const url = pathToFileURL2(file).href;
    importing.add(file);
    try {
      const [namespace, commonJs] = await Promise.all([
        TYPESCRIPT_EXTENSIONS.has(extname3(file)) ? importTypeScript(file, url) : importingAs(file, () => import(url)),
        isCommonJsFile(file)
      ]);
      return { kind: "loaded", module: { namespace, commonJs } };
    } catch (error) {
      return { kind: "threw", error };
    } finally {
      importing.delete(file);
    }
  };
  return {
    async loadExport(ref) {
      let outcome = files.get(ref.file);
      if (outcome === void 0) {
        outcome = loadFile(ref.file);
        files.set(ref.file, outcome);
      }
      return phrase(await outcome, ref);
    },
    typescriptStartupMs: () => startupMs,
    tsxSearchFrom: options.tsxSearchFrom ?? [],
    importsModules: options.importModules !== false
  };
}
function phrase(outcome, ref) {
  switch (outcome.kind) {
    case "missing":
      return {
        ok: false,
        error: notFound(ref, outcome.isDirectory, outcome.suggestion, outcome.special)
      };
    case "not-imported":
      return { ok: true, value: void 0 };
    case "threw":
      if (outcome.error instanceof TsxMissingError) {
        return {
          ok: false,
          error: {
            code: "module.tsx-missing",
            message: `${specPath(ref)}: ${outcome.error.message}`
          }
        };
      }
      return { ok: false, error: describeImportFailure(outcome.error, ref) };
    case "loaded": {
      const found = findExport(outcome.module, ref.exportName);
      if (found.found) return { ok: true, value: found.value };
      return { ok: false, error: exportMissing(ref, outcome.module) };
    }
  }
}
function notFound(ref, isDirectory, suggestion, special) {
  const what = isDirectory ? `, which is a folder` : special !== void 0 ? `, which is ${special}, not a regular file` : "";
  const hint = suggestion === void 0 ? "" : `; did you mean ${respell(ref, suggestion)}?`;
  return {
    code: "module.not-found",
    message: `module not found: ${specPath(ref)} (resolved to ${ref.file}${what})${hint}`,
    file: ref.file
  };
}
function respell(ref, suggestion) {
  const written = specPath(ref);
  const tail = relative2(ref.file, suggestion).split(sep2).join("/");
  if (!tail.startsWith("../")) return `${written.replace(/\/+$/, "")}/${tail}`;
  const slash = written.lastIndexOf("/");
  return `${written.slice(0, slash + 1)}${tail.slice("../".length)}`;
}
function exportMissing(ref, module) {
  const { names, hasDefault } = listExports(module);
  const path = specPath(ref);
  let message;
  if (ref.exportName === "default") {
    message = names.length === 0 ? `${path} has no default export; it has no exports` : `${path} has no default export; its exports are: ${names.join(", ")} (name one with ${path}#${names[0]})`;
  } else if (names.length === 0) {
    message = hasDefault ? `${path} has no export "${ref.exportName}"; it has only a default export (use ${path} without #${ref.exportName})` : `${path} has no export "${ref.exportName}"; it has no exports`;
  } else {
    const also = hasDefault ? " and a default export" : "";
    message = `${path} has no export "${ref.exportName}"; its exports are: ${names.join(", ")}${also}`;
  }
  return { code: "module.export-missing", message, file: ref.file };
}

// src/evaluators/call-form.ts
var MAPPER_FORMS = {
  evaluateAssertions: "{ testCase, output }",
  makePrompt: "{ testCase, output, recentOverrides }",
  userInputMapper: "{ testCase, output }",
  retrievedContextsMapper: "{ testCase, output }"
};
var SDK_MEMBER_FORMS = {
  testCaseMapper: "{ testCase }",
  outputMapper: "{ output }",
  expectedOutputMapper: "{ testCase }",
  baselineMapper: "{ testCase }",
  responseMapper: "{ output }",
  referenceMapper: "{ testCase }",
  referenceContextsMapper: "{ testCase }",
  ...MAPPER_FORMS,
  scoreChoices: null
};

// src/bind/modules/shapes.ts
function asTestFn(value, ref) {
  if (typeof value === "function" && !isClass(value)) return { ok: true, value };
  return wrongShape(ref, "a function (the function under test)", value);
}
function wrongShape(ref, expected, found) {
  return {
    ok: false,
    error: {
      code: "module.wrong-shape",
      message: `${refLabel(ref)} must be ${expected}, found ${describeKind(found)}`
    }
  };
}
function describeKind(value) {
  if (value === void 0) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return isClass(value) ? `a class (${value.name || "anonymous"})` : "a function";
    default: {
      const proto = Object.getPrototypeOf(value);
      const name = proto?.constructor?.name;
      return proto === null || proto === Object.prototype || typeof name !== "string" || name === "" ? "an object" : `an instance of ${name}`;
    }
  }
}
function isClass(fn) {
  return typeof fn === "function" && /^class\b/.test(Function.prototype.toString.call(fn));
}

// src/bind/function-worker.ts
async function start(port, data) {
  holdRunSecrets(createScrubber(data.secrets));
  const loader = createModuleLoader({ tsxSearchFrom: data.tsxSearchFrom });
  const ref = parseModuleSpec(data.spec, data.dir);
  const loaded = await loader.loadExport(ref);
  const fn = loaded.ok ? asTestFn(loaded.value, ref) : loaded;
  if (!fn.ok) {
    const { message, file, line, col } = fn.error;
    port.postMessage({ type: "load-failed", failure: { message, file, line, col } });
    port.close();
    return;
  }
  serveFunction(fn.value, port);
}
if (!isMainThread && parentPort !== null) {
  const port = parentPort;
  start(port, workerData).catch((error) => {
    port.postMessage({
      type: "load-failed",
      failure: { message: error instanceof Error ? error.message : String(error) }
    });
    port.close();
  });
}
