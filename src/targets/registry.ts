/**
 * Every kind of target, by the `kind` of a suite's `TargetConfig`: how each is built from the
 * config. A new kind is one file and one entry here; the engine only ever calls `Target.call`.
 * The record is typed by the config's kinds, so a kind without an implementation is a compile
 * error.
 */
import type { ConfigPath, LoadedConfig, SuiteConfig, TargetConfig } from '../config/types.ts';
import type { Located } from '../shared/errors.ts';
import type { Target, TestFn } from '../types/index.ts';
import { functionTarget } from './function.ts';
import { recordedTarget } from './recorded.ts';

/** What building a target may use: the suite it belongs to and the loading of user code. */
export interface TargetContext {
  config: LoadedConfig;
  suite: SuiteConfig;
  /**
   * The function exported by `module` (a module spec), or the problem placed at `where` in the
   * config (or at the syntax error in the module itself).
   */
  loadFunction(module: string, where: ConfigPath): Promise<Located<TestFn>>;
}

/** Builds one kind of target from its config; a problem is placed in the config. */
export interface TargetKind<C extends { kind: string } = TargetConfig> {
  create(config: C, context: TargetContext): Promise<Located<Target>>;
}

/** The targets a config may name. */
export const targetKinds: {
  [K in TargetConfig['kind']]: TargetKind<Extract<TargetConfig, { kind: K }>>;
} = {
  function: {
    async create(config, context) {
      const fn = await context.loadFunction(config.module, ['function']);
      return fn.ok
        ? { ok: true, value: functionTarget(fn.value, `function ${config.module}`) }
        : fn;
    },
  },
  recorded: {
    create: () => Promise.resolve({ ok: true, value: recordedTarget }),
  },
};

/** A registry of target kinds, as the binding step takes it (the built-ins, or more in tests). */
export type TargetKinds = Readonly<Record<string, TargetKind<{ kind: string }>>>;
