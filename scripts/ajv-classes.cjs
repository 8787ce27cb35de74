// The entry of the ajv copy that the CLI and Action bundles load from next to themselves
// (src/shared/ajv-module.bundled.ts): the three validator classes, sharing one ajv core.
'use strict';
module.exports = {
  Ajv: require('ajv').Ajv,
  Ajv2019: require('ajv/dist/2019.js').Ajv2019,
  Ajv2020: require('ajv/dist/2020.js').Ajv2020,
};
