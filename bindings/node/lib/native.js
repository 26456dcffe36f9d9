// The compiled addon (build/webnn.node, built by `npm install`).
'use strict';
const path = require('path');

const candidates = ['build/webnn.node', 'build/Release/webnn.node', 'build/Debug/webnn.node'];
let native;
// WEBNN_NODE_ADDON: an addon built elsewhere (the repository's CMake build, for its tests).
if (process.env.WEBNN_NODE_ADDON) native = require(path.resolve(process.env.WEBNN_NODE_ADDON));
for (const candidate of native ? [] : candidates) {
  try {
    native = require(path.join(__dirname, '..', candidate));
    break;
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
  }
}
if (!native) {
  throw new Error(`webnn-cpp: the native addon is not built (looked for ${candidates.join(', ')}); ` +
                  'run `npm install` in the package folder');
}
module.exports = native;
