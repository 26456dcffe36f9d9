// The WPT conformance suite replayed through the JS API (classic and hollow constants), with the
// C++ runner's known-failure list: no failures, and, when WEBNN_TOOL names the `webnn` command,
// the same pass count as the C++ runner on the same backend.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const { execFileSync } = require('child_process');
const webnn = require('../../bindings/node');
const { runConformance, summaryLine } = require('./conformance/runner');

const root = path.resolve(__dirname, '../..');
const directory = path.join(root, 'tests/conformance/wpt');

test('the WPT conformance suite passes through the JS API', async () => {
  // The default backend's list (the cpu backend where it is built, the reference otherwise).
  const { backend } = await webnn.ml.createContext();
  const knownFailures = path.join(root, `tests/conformance/known_failures/${backend}.txt`);
  const report = await runConformance({ directory, knownFailures, webnn });
  console.log(summaryLine(report));
  assert.deepStrictEqual(report.failures, []);
  assert.deepStrictEqual(report.nowPassing, []);
  assert.deepStrictEqual(report.stale, []);
  assert.ok(report.passed > 1700, `only ${report.passed} cases passed`);
  if (process.env.WEBNN_TOOL) {
    const output = execFileSync(process.env.WEBNN_TOOL,
      ['conformance', directory, '--backend', backend, '--known-failures', knownFailures],
      { encoding: 'utf8' });
    const cpp = /conformance: \d+ passed, \d+ failed, \d+ known/.exec(output)[0];
    assert.strictEqual(summaryLine(report), cpp);
  }
});
