// Lets a child `node` process run the TypeScript sources as Jest does (transpile only, decorator metadata,
// `@app/<lib>` mapped to libs/<lib>/src), so a test can start a real app process and kill it: node -r this.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const ts = require('typescript');

const root = path.resolve(__dirname, '../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@app\/([a-z-]+)$/.exec(request);
  return resolve.call(this, lib ? path.join(root, 'libs', lib[1], 'src') : request, ...rest);
};

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(outputText, filename);
};
