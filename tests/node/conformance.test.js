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
const directory = process.env.WEBNN_SHARED_DIR
  ? path.join(process.env.WEBNN_SHARED_DIR, 'conformance/wpt')
  : path.resolve(root, '../shared/conformance/wpt');
const knownFailures = path.join(root, 'tests/conformance/known_failures/reference.txt');

test('the WPT conformance suite passes through the JS API', async () => {
  const report = await runConformance({ directory, knownFailures, webnn });
  console.log(summaryLine(report));
  assert.deepStrictEqual(report.failures, []);
  assert.deepStrictEqual(report.nowPassing, []);
  assert.deepStrictEqual(report.stale, []);
  assert.ok(report.passed > 1700, `only ${report.passed} cases passed`);
  if (process.env.WEBNN_TOOL) {
    const output = execFileSync(process.env.WEBNN_TOOL,
      ['conformance', directory, '--known-failures', knownFailures], { encoding: 'utf8' });
    const cpp = /conformance: \d+ passed, \d+ failed, \d+ known/.exec(output)[0];
    assert.strictEqual(summaryLine(report), cpp);
  }
});
