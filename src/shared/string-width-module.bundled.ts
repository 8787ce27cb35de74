/**
 * {@link STRING_WIDTH_MODULE} inside the CLI and Action bundles: the CommonJS copy of
 * `string-width` that scripts/bundle-cli.js and scripts/bundle-action.js write next to them.
 */
export const STRING_WIDTH_MODULE: string = './string-width.cjs';
